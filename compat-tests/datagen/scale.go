package datagen

import (
	"fmt"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// scale holds the cardinalities at one scale factor (clause 4.2.5).
type scale struct {
	sf        float64
	suppliers int64
	customers int64
	parts     int64
	orders    int64
	clerks    int64
}

func newScale(sf float64) (scale, error) {
	if !(sf > 0) || math.IsInf(sf, 0) || sf > 1000 {
		return scale{}, fmt.Errorf("datagen: scale factor %v out of range (0, 1000]", sf)
	}
	n := func(base float64) int64 { return max(1, int64(math.Round(sf*base))) }
	return scale{
		sf:        sf,
		suppliers: n(10_000),
		customers: n(150_000),
		parts:     n(200_000),
		orders:    n(1_500_000),
		clerks:    n(1_000),
	}, nil
}

// Dates of clause 4.2.2.12, as days since the Unix epoch.
var (
	startDate   = dayOf(1992, time.January, 1)
	currentDate = dayOf(1995, time.June, 17)
	endDate     = dayOf(1998, time.December, 31)
)

func dayOf(y int, m time.Month, d int) arrow.Date32 {
	return arrow.Date32FromTime(time.Date(y, m, d, 0, 0, 0, 0, time.UTC))
}

// retailPrice is p_retailprice in cents, a function of the part key
// (clause 4.2.3), so line items can price a part without looking it up.
func retailPrice(partKey int64) int64 {
	return 90000 + (partKey/10)%20001 + 100*(partKey%1000)
}

// partSupplier is the i-th (0..3) supplier of a part (clause 4.2.3), shared
// by partsupp and lineitem so that every line item's (part, supplier) pair
// is in partsupp.
func partSupplier(partKey int64, i int, suppliers int64) int64 {
	return (partKey+int64(i)*(suppliers/4+(partKey-1)/suppliers))%suppliers + 1
}

// orderKey is the key of the n-th order (0-based): only the first eight
// keys of every 32 are used (clause 4.2.3, sparse keys).
func orderKey(n int64) int64 { return (n/8)*32 + n%8 + 1 }

// orderCustomer maps a draw in [0, customers-customers/3) to a customer key
// that is not a multiple of three: a third of the customers place no
// orders (clause 4.2.3).
func orderCustomer(n int64) int64 { return n + n/2 + 1 }

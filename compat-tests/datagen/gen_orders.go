package datagen

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// order is one order and its line items, drawn together from the order's
// stream: the order's status and total price follow from its lines.
type order struct {
	key, customer int64
	status        string
	totalCents    int64
	date          arrow.Date32
	priority      string
	clerk         string
	comment       string
	lines         [7]line
	nlines        int
}

type line struct {
	part, supplier                    int64
	quantity                          int64
	extendedCents                     int64
	discount, tax                     int64 // in hundredths
	returnFlag, lineStatus            string
	shipDate, commitDate, receiptDate arrow.Date32
	instruct, mode                    string
	comment                           string
}

// orderDraw draws orders into a reused order value.
type orderDraw struct {
	g    *rowRand
	pool textPool
	sc   scale
	o    order
}

// draw fills d.o with the n-th order (0-based), following clause 4.2.3.
func (d *orderDraw) draw(n int64) *order {
	g, sc, o := d.g, d.sc, &d.o
	g.seed(seedOrder, n)
	o.key = orderKey(n)
	o.customer = orderCustomer(g.between(0, sc.customers-sc.customers/3-1))
	o.date = startDate + arrow.Date32(g.between(0, int64(endDate-startDate)-151))
	o.priority = orderPriorities[g.index(len(orderPriorities))]
	o.clerk = numberedName("Clerk#", g.between(1, sc.clerks))
	o.comment = d.pool.text(g, 19, 78)
	o.nlines = int(g.between(1, 7))
	o.totalCents = 0
	shipped, open := 0, 0
	for i := range o.nlines {
		l := &o.lines[i]
		l.part = g.between(1, sc.parts)
		l.supplier = partSupplier(l.part, g.index(suppliersPerPart), sc.suppliers)
		l.quantity = g.between(1, 50)
		l.extendedCents = l.quantity * retailPrice(l.part)
		l.discount = g.between(0, 10)
		l.tax = g.between(0, 8)
		l.shipDate = o.date + arrow.Date32(g.between(1, 121))
		l.commitDate = o.date + arrow.Date32(g.between(30, 90))
		l.receiptDate = l.shipDate + arrow.Date32(g.between(1, 30))
		l.returnFlag = "N"
		if ret := g.index(2); l.receiptDate <= currentDate {
			l.returnFlag = [2]string{"R", "A"}[ret]
		}
		if l.shipDate > currentDate {
			l.lineStatus = "O"
			open++
		} else {
			l.lineStatus = "F"
			shipped++
		}
		l.instruct = shipInstructions[g.index(len(shipInstructions))]
		l.mode = shipModes[g.index(len(shipModes))]
		l.comment = d.pool.text(g, 10, 43)
		// extendedprice * (1 - discount) * (1 + tax), rounded to cents.
		o.totalCents += (l.extendedCents*(100-l.discount)*(100+l.tax) + 5000) / 10000
	}
	switch {
	case open == 0:
		o.status = "F"
	case shipped == 0:
		o.status = "O"
	default:
		o.status = "P"
	}
	return o
}

// ordersSource makes SF*1,500,000 orders.
type ordersSource struct {
	d        orderDraw
	key      *array.Int64Builder
	customer *array.Int64Builder
	status   *array.StringBuilder
	total    *array.Decimal128Builder
	date     *array.Date32Builder
	priority *array.StringBuilder
	clerk    *array.StringBuilder
	shipPrio *array.Int32Builder
	comment  *array.StringBuilder
}

func (s *ordersSource) units() int64 { return s.d.sc.orders }

func (s *ordersSource) bind(b *array.RecordBuilder) {
	f := builders{b: b}
	s.key, s.customer, s.status, s.total, s.date = f.int64(), f.int64(), f.str(), f.decimal(), f.date()
	s.priority, s.clerk, s.shipPrio, s.comment = f.str(), f.str(), f.int32(), f.str()
}

func (s *ordersSource) appendUnit(n int64) {
	o := s.d.draw(n)
	s.key.Append(o.key)
	s.customer.Append(o.customer)
	s.status.Append(o.status)
	s.total.Append(decimal128.FromI64(o.totalCents))
	s.date.Append(o.date)
	s.priority.Append(o.priority)
	s.clerk.Append(o.clerk)
	s.shipPrio.Append(0)
	s.comment.Append(o.comment)
}

// lineitemSource makes one to seven line items per order.
type lineitemSource struct {
	d                                 orderDraw
	order, part, supplier             *array.Int64Builder
	number                            *array.Int32Builder
	quantity, extended, disc, tax     *array.Decimal128Builder
	returnFlag, lineStatus            *array.StringBuilder
	shipDate, commitDate, receiptDate *array.Date32Builder
	instruct, mode, comment           *array.StringBuilder
}

func (s *lineitemSource) units() int64 { return s.d.sc.orders }

func (s *lineitemSource) bind(b *array.RecordBuilder) {
	f := builders{b: b}
	s.order, s.part, s.supplier, s.number = f.int64(), f.int64(), f.int64(), f.int32()
	s.quantity, s.extended, s.disc, s.tax = f.decimal(), f.decimal(), f.decimal(), f.decimal()
	s.returnFlag, s.lineStatus = f.str(), f.str()
	s.shipDate, s.commitDate, s.receiptDate = f.date(), f.date(), f.date()
	s.instruct, s.mode, s.comment = f.str(), f.str(), f.str()
}

func (s *lineitemSource) appendUnit(n int64) {
	o := s.d.draw(n)
	for i := range o.nlines {
		l := &o.lines[i]
		s.order.Append(o.key)
		s.part.Append(l.part)
		s.supplier.Append(l.supplier)
		s.number.Append(int32(i + 1))
		s.quantity.Append(decimal128.FromI64(l.quantity * 100))
		s.extended.Append(decimal128.FromI64(l.extendedCents))
		s.disc.Append(decimal128.FromI64(l.discount))
		s.tax.Append(decimal128.FromI64(l.tax))
		s.returnFlag.Append(l.returnFlag)
		s.lineStatus.Append(l.lineStatus)
		s.shipDate.Append(l.shipDate)
		s.commitDate.Append(l.commitDate)
		s.receiptDate.Append(l.receiptDate)
		s.instruct.Append(l.instruct)
		s.mode.Append(l.mode)
		s.comment.Append(l.comment)
	}
}

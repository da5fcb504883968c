package main

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// sameAnswer checks that two results hold the same rows, in any order.
// Cells must match as text, except numbers, which may differ in their
// last digits: a float sum depends on the order rows were added in.
func sameAnswer(a, b []string) error {
	if len(a) != len(b) {
		return fmt.Errorf("%d rows against %d", len(a), len(b))
	}
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	for i := range a {
		if a[i] == b[i] {
			continue
		}
		ca, cb := strings.Split(a[i], "|"), strings.Split(b[i], "|")
		if len(ca) != len(cb) {
			return fmt.Errorf("row %q against %q", a[i], b[i])
		}
		for j := range ca {
			if ca[j] != cb[j] && !closeNumbers(ca[j], cb[j]) {
				return fmt.Errorf("row %q against %q", a[i], b[i])
			}
		}
	}
	return nil
}

// closeNumbers reports whether x and y are numbers equal to about twelve
// significant digits.
func closeNumbers(x, y string) bool {
	fx, err := strconv.ParseFloat(x, 64)
	if err != nil {
		return false
	}
	fy, err := strconv.ParseFloat(y, 64)
	if err != nil {
		return false
	}
	return math.Abs(fx-fy) <= 1e-12*math.Max(1, math.Max(math.Abs(fx), math.Abs(fy)))
}

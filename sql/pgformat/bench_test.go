package pgformat

import (
	"testing"
	"time"
)

func mustDateTime(tb testing.TB, format string) *DateTimeTemplate {
	tb.Helper()
	tmpl, err := ParseDateTime(format)
	if err != nil {
		tb.Fatalf("ParseDateTime(%q): %v", format, err)
	}
	return tmpl
}

func mustNumber(tb testing.TB, format string) *NumberTemplate {
	tb.Helper()
	tmpl, err := ParseNumber(format)
	if err != nil {
		tb.Fatalf("ParseNumber(%q): %v", format, err)
	}
	return tmpl
}

const benchTemplate = "FMDay, DDth FMMonth YYYY HH12:MI:SS.US AM TZ OF IYYY-IW J RM"

// TestApplyDoesNotAllocate pins the per-row contract: with a large enough
// dst, applying a compiled template allocates nothing.
func TestApplyDoesNotAllocate(t *testing.T) {
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatalf("time zone: %v", err)
	}
	ts := time.Date(2024, 3, 5, 14, 7, 9, 123456000, loc)
	dt := mustDateTime(t, benchTemplate)
	num := mustNumber(t, "FMS9G999G999D9999th")
	sci := mustNumber(t, "9.999EEEE")
	buf := make([]byte, 0, 256)
	checks := map[string]func(){
		"AppendTimestamp": func() { buf = dt.AppendTimestamp(buf[:0], ts, true) },
		"AppendInterval":  func() { buf = dt.AppendInterval(buf[:0], 14, 3, 3723004005) },
		"AppendDecimal":   func() { buf = num.AppendDecimal(buf[:0], "-1234567.89512") },
		"AppendFloat":     func() { buf = num.AppendFloat(buf[:0], 1234.5678, 64) },
		"AppendScientific": func() {
			buf = sci.AppendDecimal(buf[:0], "0.000123456")
		},
	}
	for name, fn := range checks {
		if n := testing.AllocsPerRun(100, fn); n != 0 {
			t.Errorf("%s: %v allocs per run, want 0", name, n)
		}
	}
}

func BenchmarkAppendTimestamp(b *testing.B) {
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		loc = time.UTC
	}
	ts := time.Date(2024, 3, 5, 14, 7, 9, 123456000, loc)
	tmpl := mustDateTime(b, benchTemplate)
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		buf = tmpl.AppendTimestamp(buf[:0], ts, true)
	}
}

func BenchmarkAppendDecimal(b *testing.B) {
	tmpl := mustNumber(b, "FM9G999G999D99")
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		buf = tmpl.AppendDecimal(buf[:0], "1234567.891")
	}
}

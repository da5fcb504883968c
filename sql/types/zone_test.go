package types

import (
	"testing"
	"time"
)

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := LoadZone(name)
	if err != nil {
		t.Fatalf("LoadZone(%q): %v", name, err)
	}
	return loc
}

// TestTimestampTZInZone reads timestamptz text in a session zone and
// prints it back; the outputs are PostgreSQL 15's (including the DST gap,
// which takes the offset before it, and the repeated hour, which takes
// the offset after it).
func TestTimestampTZInZone(t *testing.T) {
	tests := []struct {
		zone, in, want string
	}{
		{"America/Denver", "2024-06-01 08:00Z", "2024-06-01 02:00:00-06"},
		{"America/Denver", "2024-06-01 08:00", "2024-06-01 08:00:00-06"},
		{"America/Denver", "2024-03-10 02:30", "2024-03-10 03:30:00-06"},
		{"America/Denver", "2024-11-03 01:30", "2024-11-03 01:30:00-07"},
		{"America/Denver", "1850-06-01 08:00Z", "1850-06-01 01:00:04-06:59:56"},
		{"Asia/Kolkata", "2024-06-01 08:00Z", "2024-06-01 13:30:00+05:30"},
		{"Europe/Amsterdam", "1900-06-01 08:00Z", "1900-06-01 08:19:32+00:19:32"},
		{"Australia/Lord_Howe", "2024-04-07 01:45", "2024-04-07 01:45:00+10:30"},
		{"Australia/Lord_Howe", "2024-10-06 02:15", "2024-10-06 02:45:00+11"},
		{"UTC+5", "2024-06-01 08:00Z", "2024-06-01 03:00:00-05"},
		{"+05:30", "2024-06-01 08:00Z", "2024-06-01 02:30:00-05:30"},
		{"<-07>+07", "2024-06-01 08:00Z", "2024-06-01 01:00:00-07"},
		{"UTC", "2024-06-01 08:00:00.25", "2024-06-01 08:00:00.25+00"},
	}
	for _, tt := range tests {
		t.Run(tt.zone+" "+tt.in, func(t *testing.T) {
			loc := mustZone(t, tt.zone)
			micros, err := ParseTimestampIn(tt.in, TimestampTZ, loc)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(AppendTimestampTZ(nil, micros, loc)); got != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestLoadZone(t *testing.T) {
	tests := []struct {
		name    string
		want    string // loc.String(); "" when refused
		wantErr bool
	}{
		{name: "America/Denver", want: "America/Denver"},
		{name: "america/new_york", want: "America/New_York"},
		{name: "utc", want: "UTC"},
		{name: "Z", want: "UTC"},
		{name: "Mars/Olympus", wantErr: true},
		{name: "", wantErr: true},
		{name: "../etc/passwd", wantErr: true},
	}
	for _, tt := range tests {
		loc, err := LoadZone(tt.name)
		if tt.wantErr {
			if err == nil {
				t.Errorf("LoadZone(%q) = %v, want an error", tt.name, loc)
			}
			continue
		}
		if err != nil || loc.String() != tt.want {
			t.Errorf("LoadZone(%q) = %v, %v; want %s", tt.name, loc, err, tt.want)
		}
	}
}

func TestNumericZoneName(t *testing.T) {
	for hours, want := range map[float64]string{-7: "<-07>+07", 5.5: "<+05:30>-05:30", 0: "<+00>-00"} {
		if got, err := NumericZoneName(hours); err != nil || got != want {
			t.Errorf("NumericZoneName(%g) = %q, %v; want %q", hours, got, err, want)
		}
	}
	if _, err := NumericZoneName(20); err == nil {
		t.Error("NumericZoneName(20) should be out of range")
	}
}

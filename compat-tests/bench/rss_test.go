package main

import (
	"os"
	"strings"
	"testing"
)

func TestParseVmHWM(t *testing.T) {
	status, err := os.ReadFile("testdata/status.txt")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		input   string
		want    int64
		wantErr bool
	}{
		{name: "proc status", input: string(status), want: 144384 * 1024},
		{name: "no line", input: "Name:\tsqe\nVmRSS:\t 1 kB\n", wantErr: true},
		{name: "unit missing", input: "VmHWM:\t 12\n", wantErr: true},
		{name: "not a number", input: "VmHWM:\t x kB\n", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseVmHWM(strings.NewReader(tt.input))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Fatalf("got %d, want %d", got, tt.want)
			}
		})
	}
}

func TestPeakRSSOfThisProcess(t *testing.T) {
	n, err := peakRSS(os.Getpid())
	if err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	if n <= 0 {
		t.Fatalf("peak RSS %d, want > 0", n)
	}
}

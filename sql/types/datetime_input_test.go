package types

import "testing"

func TestEpochInput(t *testing.T) {
	tests := []struct {
		in   string
		typ  T
		want any
	}{
		{"epoch", Timestamp, int64(0)},
		{" EPOCH ", Date, int32(0)},
		{"Epoch", TimestampTZ, int64(0)},
	}
	for _, tt := range tests {
		t.Run(tt.typ.Name()+" "+tt.in, func(t *testing.T) {
			v, err := ParseText(tt.in, tt.typ)
			if err != nil || v != tt.want {
				t.Errorf("got %v, %v; want %v", v, err, tt.want)
			}
		})
	}
}

package pgwire

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/types"
)

// TestTimestampTZTextInZone prints timestamptz values in a session zone,
// in a DataRow column, an array element and a COPY csv line; the texts are
// PostgreSQL 15's. Binary output stays UTC microseconds.
func TestTimestampTZTextInZone(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	instant := func(s string) int64 {
		ts, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return ts.UnixMicro()
	}
	tests := []struct {
		zone    string
		instant string
		want    string
	}{
		{"America/Denver", "2024-06-01T08:00:00Z", "2024-06-01 02:00:00-06"},
		{"America/Denver", "2024-01-15T12:00:00Z", "2024-01-15 05:00:00-07"},
		{"America/Denver", "1850-06-01T08:00:00Z", "1850-06-01 01:00:04-06:59:56"},
		{"Asia/Kolkata", "2024-06-01T08:00:00Z", "2024-06-01 13:30:00+05:30"},
		{"UTC", "2024-06-01T08:00:00Z", "2024-06-01 08:00:00+00"},
	}
	for _, tt := range tests {
		t.Run(tt.zone+" "+tt.instant, func(t *testing.T) {
			loc, err := types.LoadZone(tt.zone)
			if err != nil {
				t.Fatal(err)
			}
			micros := instant(tt.instant)
			b := array.NewTimestampBuilder(mem, types.TimestampTZ.Arrow().(*arrow.TimestampType))
			b.Append(arrow.Timestamp(micros))
			arr := b.NewArray()
			b.Release()
			defer arr.Release()

			col := sql.Column{Name: "ts", Type: types.TimestampTZ}
			enc, err := newTextEncoderIn(col, arr.DataType(), loc)
			if err != nil {
				t.Fatal(err)
			}
			if err := enc.bind(arr); err != nil {
				t.Fatal(err)
			}
			if got := string(enc.appendText(nil, 0)); got != tt.want {
				t.Errorf("text: got %q, want %q", got, tt.want)
			}

			// COPY csv prints the same text.
			schema := arrow.NewSchema([]arrow.Field{{Name: "ts", Type: arr.DataType(), Nullable: true}}, nil)
			rec := array.NewRecordBatch(schema, []arrow.Array{arr}, 1)
			defer rec.Release()
			ce := newCopyEncoder(sql.CopyFormat{Mode: sql.CopyCSV, Columns: []sql.Column{col}, Delimiter: ',', Quote: '"', Escape: '"'})
			ce.zone = loc
			if err := ce.bind(rec); err != nil {
				t.Fatal(err)
			}
			if got := string(ce.appendRow(nil, 0)); got != tt.want+"\n" {
				t.Errorf("copy csv: got %q, want %q", got, tt.want+"\n")
			}

			// Binary output is the instant, whatever the zone.
			re := newRowEncoder([]sql.Column{col}, []int16{formatBinary})
			re.zone = loc
			if err := re.bind(rec); err != nil {
				t.Fatal(err)
			}
			bin, err := re.newEncoder(0, arr.DataType())
			if err != nil {
				t.Fatal(err)
			}
			if err := bin.bind(arr); err != nil {
				t.Fatal(err)
			}
			want := micros - 946_684_800_000_000 // PostgreSQL's epoch is 2000-01-01
			got := bin.appendValue(nil, 0)
			var v int64
			for _, c := range got {
				v = v<<8 | int64(c)
			}
			if v != want {
				t.Errorf("binary: got %d, want %d", v, want)
			}
		})
	}
}

package pgwire

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgproto3/v2"
)

// TestPortalResumesAcrossBatches fetches a result in slices that do not
// line up with its 1000-row batches: every row arrives once, in order, and
// the final tag counts the last Execute's rows.
func TestPortalResumesAcrossBatches(t *testing.T) {
	tests := []struct {
		name    string
		maxRows uint32
	}{
		{"smaller than a batch", 300},
		{"larger than a batch", 1500},
		{"exactly a batch", 1000},
		{"one row", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, nil)
			c := ts.dialRaw(t)
			c.startup("alice", goodToken)
			const total = 2500
			c.send(&pgproto3.Parse{Query: fmt.Sprintf("select many %d", total)}, &pgproto3.Bind{})
			next, executes := 0, 0
			for {
				c.send(&pgproto3.Execute{MaxRows: tt.maxRows}, &pgproto3.Flush{})
				executes++
				if executes == 1 {
					for _, want := range []string{"*pgproto3.ParseComplete", "*pgproto3.BindComplete"} {
						if got := c.receive(); got != want {
							t.Fatalf("got %s, want %s", got, want)
						}
					}
				}
				rows := 0
				for {
					m := c.receive()
					if m == "*pgproto3.PortalSuspended" {
						break
					}
					if strings.HasPrefix(m, "CommandComplete") {
						if want := fmt.Sprintf("CommandComplete[SELECT %d]", rows); m != want {
							t.Fatalf("got %s, want %s", m, want)
						}
						if next != total {
							t.Fatalf("finished after %d rows", next)
						}
						c.send(&pgproto3.Sync{})
						if got := c.receive(); got != "ReadyForQuery[I]" {
							t.Fatal(got)
						}
						return
					}
					if want := fmt.Sprintf("DataRow[%d]", next); m != want {
						t.Fatalf("got %s, want %s", m, want)
					}
					next++
					rows++
				}
				if rows != int(tt.maxRows) {
					t.Fatalf("suspended after %d rows, limit %d", rows, tt.maxRows)
				}
				if executes > total+2 {
					t.Fatal("portal never finishes")
				}
			}
		})
	}
}

func TestExtendedProtocolAgainstFakeSession(t *testing.T) {
	tests := []struct {
		name string
		send []pgproto3.FrontendMessage
		want []string
	}{
		{"portals end at Sync outside a transaction", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "select ints"}, &pgproto3.Bind{DestinationPortal: "p"}, &pgproto3.Sync{},
			&pgproto3.Execute{Portal: "p"}, &pgproto3.Sync{},
		}, []string{"*pgproto3.ParseComplete", "*pgproto3.BindComplete", "ReadyForQuery[I]",
			`ErrorResponse[ERROR 34000 portal "p" does not exist]`, "ReadyForQuery[I]"}},
		{"portals survive Sync in a transaction block", []pgproto3.FrontendMessage{
			&pgproto3.Query{String: "begin"},
			&pgproto3.Parse{Query: "select ints"}, &pgproto3.Bind{DestinationPortal: "p"}, &pgproto3.Sync{},
			&pgproto3.Execute{Portal: "p"}, &pgproto3.Sync{},
		}, []string{"CommandComplete[BEGIN]", "ReadyForQuery[T]", "*pgproto3.ParseComplete", "*pgproto3.BindComplete", "ReadyForQuery[T]",
			"DataRow[1,one]", "DataRow[2,NULL]", "CommandComplete[SELECT 2]", "ReadyForQuery[T]"}},
		{"unsupported result format fails at the first row", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "select ints"}, &pgproto3.Bind{ResultFormatCodes: []int16{2}},
			&pgproto3.Execute{}, &pgproto3.Sync{},
		}, []string{"*pgproto3.ParseComplete", "*pgproto3.BindComplete",
			"ErrorResponse[ERROR 22023 unsupported format code: 2]", "ReadyForQuery[I]"}},
		{"a failed statement drops its portal", []pgproto3.FrontendMessage{
			&pgproto3.Query{String: "begin"},
			&pgproto3.Parse{Query: "fail"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{},
			&pgproto3.Execute{}, &pgproto3.Sync{},
		}, []string{"CommandComplete[BEGIN]", "ReadyForQuery[T]", "*pgproto3.ParseComplete", "*pgproto3.BindComplete",
			`ErrorResponse[ERROR 42P01 relation "missing" does not exist]`, "ReadyForQuery[T]",
			`ErrorResponse[ERROR 34000 portal "" does not exist]`, "ReadyForQuery[T]"}},
		{"changed parameters are reported before ReadyForQuery", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "set app extended"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{},
		}, []string{"*pgproto3.ParseComplete", "*pgproto3.BindComplete", "CommandComplete[SET]",
			"ParameterStatus[application_name=extended]", "ReadyForQuery[I]"}},
		{"bad Describe and Close subtypes", []pgproto3.FrontendMessage{
			&pgproto3.Describe{ObjectType: 'X'}, &pgproto3.Sync{}, &pgproto3.Close{ObjectType: 'X'}, &pgproto3.Sync{},
		}, []string{"ErrorResponse[ERROR 08P01 invalid DESCRIBE message subtype 88]", "ReadyForQuery[I]",
			"ErrorResponse[ERROR 08P01 invalid CLOSE message subtype 88]", "ReadyForQuery[I]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, nil)
			c := ts.dialRaw(t)
			c.startup("alice", goodToken)
			c.send(tt.send...)
			var got []string
			for len(got) < len(tt.want) {
				got = append(got, c.receive())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestExpandFormats(t *testing.T) {
	tests := []struct {
		codes   []int16
		ncols   int
		want    []int16
		wantErr bool
	}{
		{nil, 2, []int16{0, 0}, false},
		{[]int16{1}, 3, []int16{1, 1, 1}, false},
		{[]int16{0, 1}, 2, []int16{0, 1}, false},
		{[]int16{0, 1, 0}, 2, nil, true},
	}
	for _, tt := range tests {
		got, err := expandFormats(tt.codes, tt.ncols)
		if (err != nil) != tt.wantErr || fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("expandFormats(%v, %d) = %v, %v", tt.codes, tt.ncols, got, err)
		}
	}
}

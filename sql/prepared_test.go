package sql

import (
	"context"
	"encoding/binary"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// drain reads a result's rows as "a|b" strings.
func drain(t *testing.T, res Result) []string {
	t.Helper()
	ctx := context.Background()
	var rows []string
	for {
		b, err := res.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			return rows
		}
		for r := 0; r < int(b.NumRows()); r++ {
			var vals []string
			for c := 0; c < int(b.NumCols()); c++ {
				vals = append(vals, b.Column(c).ValueStr(r))
			}
			rows = append(rows, strings.Join(vals, "|"))
		}
		b.Release()
	}
}

func be64(v int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(v)) }

// numericBinary encodes 100.00 in PostgreSQL's numeric_send format.
func numeric100() []byte {
	var b []byte
	for _, v := range []uint16{1, 0, 0, 2, 100} { // ndigits 1, weight 0, sign +, dscale 2, digit 100
		b = binary.BigEndian.AppendUint16(b, v)
	}
	return b
}

func TestPrepareAndBind(t *testing.T) {
	tests := []struct {
		name       string
		query      string
		oids       []uint32
		wantParams []types.T
		wantCols   []string
		params     [][]byte
		formats    []int16
		wantRows   []string
		wantCode   string // from Prepare or Bind
	}{
		{name: "inferred bigint parameter", query: "SELECT id, region FROM acdemo.orders WHERE id = $1",
			wantParams: []types.T{types.Int8}, wantCols: []string{"id:bigint", "region:text"},
			params: [][]byte{[]byte("2")}, wantRows: []string{"2|US"}},
		{name: "binary bigint parameter", query: "SELECT region FROM acdemo.orders WHERE id = $1",
			wantParams: []types.T{types.Int8}, wantCols: []string{"region:text"},
			params: [][]byte{be64(3)}, formats: []int16{1}, wantRows: []string{"EU"}},
		{name: "declared type wins", query: "SELECT $1 + 1", oids: []uint32{types.OIDInt4},
			wantParams: []types.T{types.Int4}, wantCols: []string{"?column?:integer"},
			params: [][]byte{[]byte("41")}, wantRows: []string{"42"}},
		{name: "untyped parameter is text", query: "SELECT $1",
			wantParams: []types.T{types.Text}, wantCols: []string{"?column?:text"},
			params: [][]byte{[]byte("hi")}, wantRows: []string{"hi"}},
		{name: "null parameter", query: "SELECT count(*) FROM acdemo.orders WHERE region = $1",
			wantParams: []types.T{types.Text}, wantCols: []string{"count:bigint"},
			params: [][]byte{nil}, wantRows: []string{"0"}},
		{name: "limit parameter", query: "SELECT id FROM acdemo.orders ORDER BY id LIMIT $1",
			wantParams: []types.T{types.Int8}, wantCols: []string{"id:bigint"},
			params: [][]byte{[]byte("2")}, wantRows: []string{"1", "2"}},
		// A parameter compared with numeric(12,2) is a numeric without
		// the column's typmod, as PostgreSQL infers it.
		{name: "binary numeric parameter", query: "SELECT id FROM acdemo.orders WHERE amount > $1 ORDER BY id",
			wantParams: []types.T{{OID: types.OIDNumeric}}, wantCols: []string{"id:bigint"},
			params: [][]byte{numeric100()}, formats: []int16{1}, wantRows: []string{"1", "3"}},
		{name: "show has a column", query: "SHOW search_path", wantCols: []string{"search_path:text"},
			wantRows: []string{`"$user", public`}},
		{name: "set has none", query: "SET search_path = acdemo", wantCols: nil, wantRows: nil},
		{name: "empty query", query: " -- nothing", wantCols: nil, wantRows: nil},
		{name: "two statements", query: "SELECT 1; SELECT 2", wantCode: pgerror.SyntaxError},
		{name: "bad text parameter", query: "SELECT id FROM acdemo.orders WHERE id = $1",
			params: [][]byte{[]byte("abc")}, wantCode: pgerror.InvalidTextRepresentation},
		{name: "wrong parameter count", query: "SELECT id FROM acdemo.orders WHERE id = $1",
			params: nil, wantCode: pgerror.ProtocolViolation},
		{name: "short binary parameter", query: "SELECT id FROM acdemo.orders WHERE id = $1",
			params: [][]byte{{1, 2}}, formats: []int16{1}, wantCode: pgerror.InvalidBinaryRepresentation},
		{name: "parameter beyond those declared in simple form", query: "SELECT $0", wantCode: pgerror.UndefinedParameter},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			s := newTestSession(t)
			ps, err := s.Prepare(ctx, tt.query, tt.oids)
			if err == nil {
				var res Result
				res, err = s.Bind(ctx, ps, tt.params, tt.formats)
				if err == nil {
					defer res.Close()
					if tt.wantCode != "" {
						t.Fatalf("want %s, got success", tt.wantCode)
					}
					var cols []string
					for _, c := range ps.Columns {
						cols = append(cols, c.Name+":"+c.Type.Name())
					}
					if !slices.Equal(cols, tt.wantCols) {
						t.Errorf("columns %v, want %v", cols, tt.wantCols)
					}
					if tt.wantParams != nil && !slices.Equal(ps.ParamTypes, tt.wantParams) {
						t.Errorf("params %v, want %v", ps.ParamTypes, tt.wantParams)
					}
					if rows := drain(t, res); !slices.Equal(rows, tt.wantRows) {
						t.Errorf("rows %q, want %q", rows, tt.wantRows)
					}
					return
				}
			}
			if got := pgerror.Code(err); got != tt.wantCode {
				t.Fatalf("error %v (%s), want %s", err, got, tt.wantCode)
			}
		})
	}
}

func TestBindRunsAtExecute(t *testing.T) {
	ctx := context.Background()
	s := newTestSession(t)
	ps, err := s.Prepare(ctx, "SET search_path = acdemo", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Bind(ctx, ps, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := s.settings.get("search_path"); v == "acdemo" {
		t.Fatal("SET ran at Bind")
	}
	drain(t, res)
	if res.CommandTag() != "SET" {
		t.Errorf("tag %q", res.CommandTag())
	}
	if v, _ := s.settings.get("search_path"); v != "acdemo" {
		t.Fatalf("search_path %q after Execute", v)
	}
}

func TestRuntimeErrorFailsTransactionBlock(t *testing.T) {
	s := newTestSession(t)
	if _, _, err := run(t, s, "BEGIN"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, s, "SELECT 1 / (id - id) FROM acdemo.orders"); pgerror.Code(err) != pgerror.DivisionByZero {
		t.Fatalf("got %v", err)
	}
	if s.TxStatus() != 'E' {
		t.Fatalf("status %c after a runtime error in a block", s.TxStatus())
	}
}

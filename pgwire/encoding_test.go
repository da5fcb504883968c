package pgwire

import (
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgproto3/v2"
)

// TestInvalidUTF8InStringFields puts bytes that are not UTF-8 in each
// string field of the query messages: the message is refused with ERROR
// 22021 before the session sees it (the rest of an extended batch is
// skipped to Sync), and the connection stays usable.
func TestInvalidUTF8InStringFields(t *testing.T) {
	const bad = "s\xff"
	const want = `ErrorResponse[ERROR 22021 invalid byte sequence for encoding "UTF8": 0xff]`
	parse := &pgproto3.Parse{Name: "s1", Query: "select ints"}
	bind := &pgproto3.Bind{PreparedStatement: "s1"}
	tests := []struct {
		name string
		msgs []pgproto3.FrontendMessage
		want []string
	}{
		{"Query text", []pgproto3.FrontendMessage{&pgproto3.Query{String: "select 'caf\xc3'"}},
			[]string{`ErrorResponse[ERROR 22021 invalid byte sequence for encoding "UTF8": 0xc3 0x27]`, "ReadyForQuery[I]"}},
		{"Query comment", []pgproto3.FrontendMessage{&pgproto3.Query{String: "select ints -- \xe2\x28\xa1"}},
			[]string{`ErrorResponse[ERROR 22021 invalid byte sequence for encoding "UTF8": 0xe2 0x28 0xa1]`, "ReadyForQuery[I]"}},
		{"Parse name", []pgproto3.FrontendMessage{&pgproto3.Parse{Name: bad, Query: "select ints"}, &pgproto3.Sync{}},
			[]string{want, "ReadyForQuery[I]"}},
		{"Parse query", []pgproto3.FrontendMessage{&pgproto3.Parse{Query: bad}, bind, &pgproto3.Execute{}, &pgproto3.Sync{}},
			[]string{want, "ReadyForQuery[I]"}},
		{"Bind portal", []pgproto3.FrontendMessage{parse, &pgproto3.Bind{DestinationPortal: bad, PreparedStatement: "s1"}, &pgproto3.Sync{}},
			[]string{"*pgproto3.ParseComplete", want, "ReadyForQuery[I]"}},
		{"Bind statement", []pgproto3.FrontendMessage{&pgproto3.Bind{PreparedStatement: bad}, &pgproto3.Sync{}},
			[]string{want, "ReadyForQuery[I]"}},
		{"Describe name", []pgproto3.FrontendMessage{&pgproto3.Describe{ObjectType: 'S', Name: bad}, &pgproto3.Sync{}},
			[]string{want, "ReadyForQuery[I]"}},
		{"Execute portal", []pgproto3.FrontendMessage{&pgproto3.Execute{Portal: bad}, &pgproto3.Sync{}},
			[]string{want, "ReadyForQuery[I]"}},
		{"Close name", []pgproto3.FrontendMessage{&pgproto3.Close{ObjectType: 'P', Name: bad}, &pgproto3.Sync{}},
			[]string{want, "ReadyForQuery[I]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, nil)
			c := ts.dialRaw(t)
			if got := c.startup("alice", goodToken); got[len(got)-1] != "ReadyForQuery[I]" {
				t.Fatalf("login: %v", got)
			}
			c.send(tt.msgs...)
			var got []string
			for len(got) < len(tt.want) {
				got = append(got, c.receive())
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			sess, _ := ts.factory.last(t)
			for _, stmt := range sess.statements() {
				if strings.ContainsRune(stmt, 0xfffd) || !strings.HasPrefix(stmt, "select ints") && stmt != "begin" {
					t.Fatalf("the session saw %q", stmt)
				}
			}
			c.send(&pgproto3.Query{String: "select ints"})
			if got := c.receiveUntilReady(); len(got) != 5 {
				t.Fatalf("connection not usable afterwards: %v", got)
			}
		})
	}
}

package pgwire

import (
	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// checkMessageEncoding refuses a message whose names or SQL text are not
// valid UTF-8 with 22021, before anything uses them, as PostgreSQL's
// reading of every string field of a message does. The statement fails;
// the connection does not.
func checkMessageEncoding(msg pgproto3.FrontendMessage) error {
	var fields []string
	switch m := msg.(type) {
	case *pgproto3.Query:
		fields = []string{m.String}
	case *pgproto3.Parse:
		fields = []string{m.Name, m.Query}
	case *pgproto3.Bind:
		fields = []string{m.DestinationPortal, m.PreparedStatement}
	case *pgproto3.Describe:
		fields = []string{m.Name}
	case *pgproto3.Execute:
		fields = []string{m.Portal}
	case *pgproto3.Close:
		fields = []string{m.Name}
	}
	for _, f := range fields {
		if err := pgerror.CheckUTF8(f); err != nil {
			return err
		}
	}
	return nil
}

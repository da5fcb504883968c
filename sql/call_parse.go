package sql

import (
	"errors"
	"sort"
	"strings"
	"unicode/utf8"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	pgparser "github.com/pganalyze/pg_query_go/v5/parser"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// parseQuery parses a query string with PostgreSQL's grammar, letting a
// CALL statement name an argument with a reserved word, as Spark's and
// Trino's procedures do: CALL system.rewrite_data_files(table => 't').
// PostgreSQL's grammar refuses such a name unless it is quoted, so when a
// query fails to parse, the keywords used that way are quoted and the
// query is parsed again. Every location in the resulting tree (and in a
// syntax error) is mapped back to the text the client sent, so positions
// and statement texts stay the client's.
func parseQuery(cache *parseCache, query string) (*pg_query.ParseResult, error) {
	tree, err := cache.parse(query)
	if err == nil {
		return tree, nil
	}
	q, ok := quoteCallArgNames(query)
	if !ok {
		return nil, err
	}
	tree, err = cache.parse(q.text)
	if err != nil {
		return nil, q.mapError(query, err)
	}
	for _, rs := range tree.Stmts {
		end := rs.StmtLocation + rs.StmtLen
		rs.StmtLocation = q.original(rs.StmtLocation)
		if rs.StmtLen > 0 {
			rs.StmtLen = q.original(end) - rs.StmtLocation
		}
		if rs.Stmt != nil {
			q.remap(rs.Stmt.ProtoReflect())
		}
	}
	return tree, nil
}

// quotedQuery is a query with some keywords quoted: text, and the byte
// offsets of the original before which a quote was inserted, ascending.
type quotedQuery struct {
	text    string
	inserts []int32
}

// quoteCallArgNames quotes (in lower case, as the unquoted word means)
// every keyword that PostgreSQL does not accept as a parameter name and
// that is used as one in a CALL statement: right after "(" or "," and
// right before "=>" or ":=". Comments between the tokens do not matter;
// string literals and every other statement are left alone. ok is false
// when there is nothing to quote or the query does not scan.
func quoteCallArgNames(query string) (q quotedQuery, ok bool) {
	scanned, err := pg_query.Scan(query)
	if err != nil {
		return q, false
	}
	var toks []*pg_query.ScanToken
	for _, t := range scanned.Tokens {
		if t.Token != pg_query.Token_SQL_COMMENT && t.Token != pg_query.Token_C_COMMENT {
			toks = append(toks, t)
		}
	}
	var b strings.Builder
	last, inCall := int32(0), false
	for i, t := range toks {
		if i == 0 || toks[i-1].Token == pg_query.Token_ASCII_59 {
			inCall = t.Token == pg_query.Token_CALL
		}
		if !inCall || !rejectedAsParamName(t.KeywordKind) || i == 0 || i+1 == len(toks) {
			continue
		}
		prev, next := toks[i-1].Token, toks[i+1].Token
		if (prev != pg_query.Token_ASCII_40 && prev != pg_query.Token_ASCII_44) ||
			(next != pg_query.Token_EQUALS_GREATER && next != pg_query.Token_COLON_EQUALS) {
			continue
		}
		b.WriteString(query[last:t.Start])
		b.WriteString(`"` + strings.ToLower(query[t.Start:t.End]) + `"`)
		q.inserts = append(q.inserts, t.Start, t.End)
		last = t.End
	}
	if len(q.inserts) == 0 {
		return q, false
	}
	b.WriteString(query[last:])
	q.text = b.String()
	return q, true
}

// rejectedAsParamName reports whether PostgreSQL's grammar refuses a
// keyword of this kind as a parameter name (type_function_name admits
// unreserved and type/function-name keywords only).
func rejectedAsParamName(k pg_query.KeywordKind) bool {
	return k == pg_query.KeywordKind_RESERVED_KEYWORD || k == pg_query.KeywordKind_COL_NAME_KEYWORD
}

// original maps a byte offset of q.text to the client's text. The k-th
// inserted quote sits at inserts[k]+k in q.text; an offset on a quote maps
// to where it was inserted.
func (q quotedQuery) original(at int32) int32 {
	n := sort.Search(len(q.inserts), func(k int) bool { return q.inserts[k]+int32(k) >= at })
	return at - int32(n)
}

// remap rewrites every location field under m (a parse node) from q.text
// to the client's text. Unknown locations (-1) stay.
func (q quotedQuery) remap(m protoreflect.Message) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.Kind() == protoreflect.MessageKind && fd.IsList():
			list := v.List()
			for i := 0; i < list.Len(); i++ {
				q.remap(list.Get(i).Message())
			}
		case fd.Kind() == protoreflect.MessageKind && !fd.IsMap():
			q.remap(v.Message())
		case fd.Kind() == protoreflect.Int32Kind && !fd.IsList() && fd.Name() == "location":
			if at := int32(v.Int()); at > 0 {
				m.Set(fd, protoreflect.ValueOfInt32(q.original(at)))
			}
		}
		return true
	})
}

// mapError moves a syntax error's cursor (1-based, in characters of
// q.text) back onto query.
func (q quotedQuery) mapError(query string, err error) error {
	var perr *pgparser.Error
	if !errors.As(err, &perr) || perr.Cursorpos <= 0 {
		return err
	}
	at, chars := 0, 1
	for at < len(q.text) && chars < perr.Cursorpos {
		_, size := utf8.DecodeRuneInString(q.text[at:])
		at += size
		chars++
	}
	moved := *perr
	orig := int(q.original(int32(at)))
	moved.Cursorpos = utf8.RuneCountInString(query[:orig]) + 1
	return &moved
}

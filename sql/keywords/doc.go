// Package keywords holds PostgreSQL's keyword list as its grammar
// classifies it (kwlist.h of the parser SQE links, pg_query_go's), so
// that quote_ident, the extension grammar and anything else that must know
// whether a word needs quotes can ask a table instead of running the
// scanner (a cgo call and a protobuf decode per word; quote_ident over
// information_schema.columns spent most of its time there).
//
// kwlist.go is generated from the parser's kwlist.h by `go generate`; a
// test checks every entry against the scanner, so a parser upgrade that
// changes the list fails until the table is generated again.
package keywords

//go:generate go run ./gen

package trinotest

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Column is a result column: its name and its type as Trino writes it
// ("bigint", "decimal(10,2)", "timestamp(6)").
type Column struct {
	Name string
	Type string
}

// Error is a query's failure as Trino reports it.
type Error struct {
	Message string
	Name    string // errorName, e.g. DIVISION_BY_ZERO
	Type    string // errorType: USER_ERROR, INTERNAL_ERROR, INSUFFICIENT_RESOURCES or EXTERNAL
	Code    int
}

// Result is how a statement is answered: its columns and rows (each
// value as Trino writes it in JSON: a json.Number or other number, a
// string, a bool or nil), then, when Error is set, the query's failure
// instead of its end.
type Result struct {
	Columns []Column
	Rows    [][]any
	Error   *Error
}

// Query is what the server saw of one statement.
type Query struct {
	ID     string
	SQL    string
	Header http.Header // the POST's headers
	// PagesServed counts the pages answered to GETs of its nextUri.
	PagesServed int
	// Pages is how many pages the answer has in all, the POST's included.
	Pages int
	// Cancelled is set by a DELETE of its nextUri.
	Cancelled bool
}

// Server is the fake coordinator.
type Server struct {
	// URL is the coordinator's base URI.
	URL string

	srv *httptest.Server

	mu          sync.Mutex
	pageRows    int
	results     map[string]Result
	queries     []*query
	unavailable int
	refuse      int
	user        string
	password    string
}

// query is a statement the server runs.
type query struct {
	Query
	slug  string
	pages []map[string]any
	// next is the token of the page the client is to ask for next.
	next int
}

// New starts a coordinator over plain http, closed when the test ends.
func New(t testing.TB) *Server {
	s := &Server{pageRows: 3, results: map[string]Result{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// NewTLS starts a coordinator over https that requires user's basic
// authentication with password, closed when the test ends.
func NewTLS(t testing.TB, user, password string) *Server {
	s := &Server{pageRows: 3, results: map[string]Result{}, user: user, password: password}
	s.srv = httptest.NewTLSServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// ClientTLS is a TLS configuration trusting the server's certificate.
func (s *Server) ClientTLS() *tls.Config {
	pool := x509.NewCertPool()
	pool.AddCert(s.srv.Certificate())
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}

// Answer sets how the statement sql is answered.
func (s *Server) Answer(sql string, r Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.results[sql] = r
}

// SetPageRows sets how many rows a page holds (3 unless set).
func (s *Server) SetPageRows(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pageRows = max(n, 1)
}

// Unavailable answers the next n GETs with 503, as Trino's gateways do
// when busy.
func (s *Server) Unavailable(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unavailable = n
}

// Refuse answers every POST with the HTTP status (401, 403, 500...); 0
// stops refusing.
func (s *Server) Refuse(status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse = status
}

// Queries are the statements received so far, in order.
func (s *Server) Queries() []Query {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Query, len(s.queries))
	for i, q := range s.queries {
		out[i] = q.Query
		out[i].Header = q.Header.Clone()
	}
	return out
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.URL.Path == "/v1/statement" {
		if r.Method != http.MethodPost {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		s.submit(w, r)
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, "/v1/statement/")
	parts := strings.Split(rest, "/")
	if !ok || len(parts) != 4 || (parts[0] != "queued" && parts[0] != "executing") {
		http.NotFound(w, r)
		return
	}
	if !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Basic realm="Trino"`)
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
		return
	}
	q := s.find(parts[1], parts[2])
	token, err := strconv.Atoi(parts[3])
	if q == nil || err != nil {
		http.Error(w, "Query not found", http.StatusNotFound)
		return
	}
	switch r.Method {
	case http.MethodDelete:
		q.Cancelled = true
		w.WriteHeader(http.StatusNoContent)
	case http.MethodGet:
		s.page(w, q, token)
	default:
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

func (s *Server) authorized(r *http.Request) bool {
	if s.password == "" {
		return true
	}
	user, password, ok := r.BasicAuth()
	return ok && r.TLS != nil && user == s.user && password == s.password
}

func (s *Server) find(id, slug string) *query {
	for _, q := range s.queries {
		if q.ID == id && q.slug == slug {
			return q
		}
	}
	return nil
}

// submit queues a statement and answers its first page.
func (s *Server) submit(w http.ResponseWriter, r *http.Request) {
	if s.refuse != 0 {
		http.Error(w, http.StatusText(s.refuse), s.refuse)
		return
	}
	if !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Basic realm="Trino"`)
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
		return
	}
	if r.Header.Get("X-Trino-User") == "" {
		http.Error(w, "User must be set", http.StatusBadRequest)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	sql := string(body)
	q := &query{
		Query: Query{ID: fmt.Sprintf("20240102_030405_%05d_sqetr", len(s.queries)+1), SQL: sql, Header: r.Header.Clone()},
		slug:  fmt.Sprintf("y%x", len(s.queries)+7),
		next:  1,
	}
	res, ok := s.results[sql]
	if !ok {
		res = Result{Error: &Error{Message: "the test server has no answer for this statement", Name: "NOT_SUPPORTED", Type: "USER_ERROR", Code: 13}}
	}
	q.pages = s.pages(res, parametricDatetime(r.Header))
	q.Pages = len(q.pages)
	s.queries = append(s.queries, q)
	s.write(w, q, 0, "queued")
}

// parametricDatetime says whether the client declared the
// PARAMETRIC_DATETIME capability.
func parametricDatetime(h http.Header) bool {
	for _, v := range h.Values("X-Trino-Client-Capabilities") {
		for c := range strings.SplitSeq(v, ",") {
			if strings.TrimSpace(c) == "PARAMETRIC_DATETIME" {
				return true
			}
		}
	}
	return false
}

// pages lays out a statement's answer: the POST's page (queued, no
// columns), the columns, the rows a page at a time, and the end.
func (s *Server) pages(res Result, parametric bool) []map[string]any {
	pages := []map[string]any{{"stats": map[string]any{"state": "QUEUED"}}}
	var cols []map[string]any
	if res.Columns != nil {
		cols = []map[string]any{}
		for _, c := range res.Columns {
			cols = append(cols, describe(c, parametric))
		}
		pages = append(pages, map[string]any{"columns": cols, "stats": map[string]any{"state": "RUNNING"}})
	}
	for start := 0; start < len(res.Rows); start += s.pageRows {
		rows := res.Rows[start:min(start+s.pageRows, len(res.Rows))]
		if !parametric {
			rows = toMilliseconds(res.Columns, rows)
		}
		pages = append(pages, map[string]any{"columns": cols, "data": rows, "stats": map[string]any{"state": "RUNNING"}})
	}
	if res.Error != nil {
		pages = append(pages, map[string]any{"stats": map[string]any{"state": "FAILED"}, "error": map[string]any{
			"message":       res.Error.Message,
			"errorCode":     res.Error.Code,
			"errorName":     res.Error.Name,
			"errorType":     res.Error.Type,
			"errorLocation": map[string]any{"lineNumber": 1, "columnNumber": 8},
			"failureInfo": map[string]any{
				"type": "io.trino.spi.TrinoException", "message": res.Error.Message, "suppressed": []any{}, "stack": []any{},
			},
		}})
	} else {
		end := map[string]any{"stats": map[string]any{"state": "FINISHED"}}
		if cols != nil {
			end["columns"] = cols
		}
		pages = append(pages, end)
	}
	return pages
}

// describe is a column as Trino describes it.
func describe(c Column, parametric bool) map[string]any {
	typ := c.Type
	if !parametric && strings.HasPrefix(typ, "timestamp(") {
		typ = "timestamp" + typ[strings.IndexByte(typ, ')')+1:]
	}
	raw, args := typ, []any{}
	if open := strings.IndexByte(typ, '('); open >= 0 {
		end := strings.IndexByte(typ, ')')
		raw = typ[:open] + typ[end+1:]
		for p := range strings.SplitSeq(typ[open+1:end], ",") {
			if n, err := strconv.Atoi(strings.TrimSpace(p)); err == nil {
				args = append(args, map[string]any{"kind": "LONG", "value": n})
			}
		}
	}
	return map[string]any{"name": c.Name, "type": typ, "typeSignature": map[string]any{"rawType": raw, "arguments": args}}
}

// toMilliseconds cuts the timestamp(p) values of rows to milliseconds,
// as Trino answers a client without PARAMETRIC_DATETIME.
func toMilliseconds(cols []Column, rows [][]any) [][]any {
	out := make([][]any, len(rows))
	for i, row := range rows {
		out[i] = append([]any(nil), row...)
		for j, v := range row {
			str, ok := v.(string)
			if j < len(cols) && strings.HasPrefix(cols[j].Type, "timestamp(") && ok {
				if dot := strings.IndexByte(str, '.'); dot >= 0 && len(str) > dot+4 {
					out[i][j] = str[:dot+4]
				}
			}
		}
	}
	return out
}

// page answers the GET of page token.
func (s *Server) page(w http.ResponseWriter, q *query, token int) {
	if q.Cancelled {
		http.Error(w, "Query cancelled", http.StatusGone)
		return
	}
	if s.unavailable > 0 {
		s.unavailable--
		http.Error(w, "Service Unavailable", http.StatusServiceUnavailable)
		return
	}
	// The page asked for next, or the last one again (a client retrying).
	if token != q.next && token != q.next-1 || token < 1 || token >= len(q.pages) {
		http.Error(w, "Query not found", http.StatusNotFound)
		return
	}
	if token == q.next {
		q.next++
	}
	q.PagesServed++
	s.write(w, q, token, "executing")
}

// write answers page i of q, with the nextUri of page i+1 unless it is
// the last.
func (s *Server) write(w http.ResponseWriter, q *query, i int, phase string) {
	doc := map[string]any{
		"id":      q.ID,
		"infoUri": s.URL + "/ui/query.html?" + q.ID,
	}
	for k, v := range q.pages[i] {
		doc[k] = v
	}
	if i+1 < len(q.pages) {
		doc["nextUri"] = fmt.Sprintf("%s/v1/statement/%s/%s/%s/%d", s.URL, phase, q.ID, q.slug, i+1)
	}
	w.Header().Set("Content-Type", "application/json")
	if err := json.NewEncoder(w).Encode(doc); err != nil {
		http.Error(w, "encoding: "+err.Error(), http.StatusInternalServerError)
	}
}

package main

import (
	"bytes"
	"context"
	"embed"
	"encoding/csv"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance/policy"
	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// The access page (/access) answers an auditor's "who sees what in this
// table, and what decided it?" for administrators: a static page and
// script, embedded here, and JSON under /access/api/ computed by
// sql.Session.TableAccess, the function SHOW ACCESS answers with, in a
// session of the administrator's own, so that gate one shows the
// administrator only what it may see.
//
// The page itself holds no data and is served to anyone without an
// Authorization header (so that a token can be pasted into it); with a
// header, and always on the API, only an administrator is admitted and
// everyone else gets 403 with nothing of the catalog.

const (
	accessPath      = "/access"
	accessAPIPrefix = "/access/api/"
)

//go:embed access_page
var accessPageFiles embed.FS

// accessPageHeaders keep the page to its own origin: no script, style,
// font or image from elsewhere, no framing.
var accessPageHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
		"form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
	"X-Content-Type-Options": "nosniff",
	"Referrer-Policy":        "no-referrer",
	"Cache-Control":          "no-store",
}

// accessReport computes the API's answers.
type accessReport struct {
	engine *sql.Engine
	// demoUsers are listed besides the users the stores know: with the
	// demo on, dave, whom no store names, is one.
	demoUsers []string
	logger    *slog.Logger
}

// setAccessReport starts answering /access/api/ with r.
func (o *opsServer) setAccessReport(r *accessReport) { o.accessReport.Store(r) }

// serveAccessPage serves the page's files. A request that carries an
// Authorization header must carry an administrator's token.
func (o *opsServer) serveAccessPage() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setHeaders(w, accessPageHeaders)
		if r.Header.Get("Authorization") != "" {
			if _, ok := o.admitToAccess(w, r); !ok {
				return
			}
		}
		name := strings.TrimPrefix(r.URL.Path, accessPath)
		if name == "" || name == "/" {
			name = "/index.html"
		}
		data, err := accessPageFiles.ReadFile("access_page" + name)
		if err != nil || strings.Count(name, "/") != 1 {
			http.NotFound(w, r)
			return
		}
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
	})
}

// admitToAccess admits an administrator, or answers the refusal: 403
// for any caller who is not one (no token, a bad one, or no admin
// role), 503 before the gate is set or when the roles cannot be read.
func (o *opsServer) admitToAccess(w http.ResponseWriter, r *http.Request) (auth.Identity, bool) {
	g := o.adminGate.Load()
	if g == nil {
		http.Error(w, "not ready", http.StatusServiceUnavailable)
		return auth.Identity{}, false
	}
	id, status := g.admit(r, "access report")
	switch status {
	case http.StatusOK:
		return id, true
	case http.StatusServiceUnavailable:
		http.Error(w, http.StatusText(status), status)
	default:
		http.Error(w, http.StatusText(http.StatusForbidden), http.StatusForbidden)
	}
	return auth.Identity{}, false
}

// serveAccessAPI serves /access/api/: catalogs, principals, table, user
// and column, each as JSON or, with format=csv, as CSV.
func (o *opsServer) serveAccessAPI() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setHeaders(w, accessPageHeaders)
		id, ok := o.admitToAccess(w, r)
		if !ok {
			return
		}
		rep := o.accessReport.Load()
		if rep == nil {
			http.Error(w, "not ready", http.StatusServiceUnavailable)
			return
		}
		rep.serve(w, r, id)
	})
}

// accessAnswer is one API answer: its JSON value and its CSV records.
type accessAnswer interface {
	csvRecords() [][]string
}

func (rep *accessReport) serve(w http.ResponseWriter, r *http.Request, id auth.Identity) {
	q := r.URL.Query()
	ctx := r.Context()
	var (
		ans accessAnswer
		err error
	)
	what := strings.TrimPrefix(r.URL.Path, accessAPIPrefix)
	switch what {
	case "catalogs":
		ans, err = rep.catalogs(ctx, id)
	case "principals":
		ans, err = rep.principals(ctx, id, q.Get("catalog"))
	case "table":
		ans, err = rep.table(ctx, id, sql.TableRef{Catalog: q.Get("catalog"), Schema: q.Get("schema"), Table: q.Get("table")})
	case "user":
		ans, err = rep.user(ctx, id, q.Get("catalog"), q.Get("user"))
	case "column":
		ans, err = rep.column(ctx, id, q.Get("catalog"), q.Get("column"))
	default:
		writeJSONError(w, http.StatusNotFound, "no such API: "+what)
		return
	}
	if err != nil {
		rep.refuse(w, id, what, err)
		return
	}
	rep.logger.Info("access report served", "user", id.User, "path", r.URL.Path, "remote", r.RemoteAddr)
	if q.Get("format") == "csv" {
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="access-`+what+`.csv"`)
		cw := csv.NewWriter(w)
		_ = cw.WriteAll(ans.csvRecords()) // a client gone mid-answer is not the server's error
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(ans)
}

// refuse answers a failed question: a PostgreSQL error by its class (the
// administrator asked about something absent, or may not ask), anything
// else as 500 with the cause in the log only.
func (rep *accessReport) refuse(w http.ResponseWriter, id auth.Identity, what string, err error) {
	var pe *pgerror.Error
	if errors.As(err, &pe) {
		status := http.StatusBadRequest
		switch pe.Code {
		case pgerror.InsufficientPrivilege:
			status = http.StatusForbidden
		case pgerror.UndefinedTable, pgerror.UndefinedSchema, pgerror.InvalidCatalogName:
			status = http.StatusNotFound
		}
		writeJSONError(w, status, pe.Message)
		return
	}
	rep.logger.Error("access report failed", "user", id.User, "report", what, "error", err)
	writeJSONError(w, http.StatusInternalServerError, "the access report failed; the server log says why")
}

func writeJSONError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

func setHeaders(w http.ResponseWriter, headers map[string]string) {
	for k, v := range headers {
		w.Header().Set(k, v)
	}
}

// session opens a session of the administrator on catalog (the first
// catalog when empty); the caller closes it.
func (rep *accessReport) session(ctx context.Context, id auth.Identity, catalog string) (*sql.Session, error) {
	if catalog == "" {
		names := rep.engine.CatalogNames()
		if len(names) == 0 {
			return nil, pgerror.New(pgerror.InvalidCatalogName, "no catalog is configured")
		}
		catalog = names[0]
	}
	s, err := rep.engine.NewSession(ctx, id, catalog, nil)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// catalogsAnswer lists each catalog's tables the administrator may see.
type catalogsAnswer struct {
	Catalogs []catalogTables `json:"catalogs"`
}

type catalogTables struct {
	Catalog string         `json:"catalog"`
	Tables  []sql.TableRef `json:"tables"`
}

func (rep *accessReport) catalogs(ctx context.Context, id auth.Identity) (*catalogsAnswer, error) {
	ans := &catalogsAnswer{Catalogs: []catalogTables{}}
	for _, name := range rep.engine.CatalogNames() {
		tables, err := rep.visibleTables(ctx, id, name)
		if err != nil {
			return nil, err
		}
		ans.Catalogs = append(ans.Catalogs, catalogTables{Catalog: name, Tables: tables})
	}
	return ans, nil
}

func (rep *accessReport) visibleTables(ctx context.Context, id auth.Identity, catalog string) ([]sql.TableRef, error) {
	s, err := rep.session(ctx, id, catalog)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	tables, err := s.VisibleTables(ctx, catalog)
	if tables == nil {
		tables = []sql.TableRef{}
	}
	return tables, err
}

func (a *catalogsAnswer) csvRecords() [][]string {
	out := [][]string{{"catalog", "schema", "table"}}
	for _, c := range a.Catalogs {
		for _, t := range c.Tables {
			out = append(out, []string{t.Catalog, t.Schema, t.Table})
		}
	}
	return out
}

// principalsAnswer is who the report lists.
type principalsAnswer struct {
	sql.Principals
}

func (rep *accessReport) principals(ctx context.Context, id auth.Identity, catalog string) (*principalsAnswer, error) {
	s, err := rep.session(ctx, id, catalog)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	p, err := rep.knownPrincipals(ctx, s)
	if err != nil {
		return nil, err
	}
	return &principalsAnswer{p}, nil
}

// knownPrincipals are the users and roles the stores know, and the demo's
// users.
func (rep *accessReport) knownPrincipals(ctx context.Context, s *sql.Session) (sql.Principals, error) {
	p, err := s.KnownPrincipals(ctx)
	if err != nil {
		return p, err
	}
	for _, u := range rep.demoUsers {
		if !slices.Contains(p.Users, u) {
			p.Users = append(p.Users, u)
		}
	}
	slices.Sort(p.Users)
	// The page reads lists, never null.
	if p.Users == nil {
		p.Users = []string{}
	}
	if p.Roles == nil {
		p.Roles = []string{}
	}
	return p, nil
}

func (a *principalsAnswer) csvRecords() [][]string {
	out := [][]string{{"kind", "name"}}
	for _, u := range a.Users {
		out = append(out, []string{"user", u})
	}
	for _, r := range a.Roles {
		out = append(out, []string{"role", r})
	}
	return out
}

// tableAnswer is one table's matrix: every known user's TableAccess,
// then every known role's (RoleAccess).
type tableAnswer struct {
	Table    sql.TableRef       `json:"table"`
	Columns  []string           `json:"columns"`
	Users    []*sql.TableAccess `json:"users"`
	RoleRows []*sql.TableAccess `json:"role_rows"`
}

func (rep *accessReport) table(ctx context.Context, id auth.Identity, t sql.TableRef) (*tableAnswer, error) {
	if t.Schema == "" || t.Table == "" {
		return nil, pgerror.New(pgerror.InvalidParameterValue, "schema and table are required")
	}
	s, err := rep.session(ctx, id, t.Catalog)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	p, err := rep.knownPrincipals(ctx, s)
	if err != nil {
		return nil, err
	}
	ans := &tableAnswer{Table: t, Columns: []string{}, Users: []*sql.TableAccess{}, RoleRows: []*sql.TableAccess{}}
	for _, u := range p.Users {
		a, err := s.TableAccess(ctx, t.Parts(), u)
		if err != nil {
			return nil, err
		}
		ans.Users = append(ans.Users, a)
	}
	for _, r := range p.Roles {
		a, err := s.RoleAccess(ctx, t.Parts(), r)
		if err != nil {
			return nil, err
		}
		ans.RoleRows = append(ans.RoleRows, a)
	}
	if len(ans.Users) > 0 {
		a := ans.Users[0]
		ans.Table = sql.TableRef{Catalog: a.Catalog, Schema: a.Schema, Table: a.Table}
		for _, c := range a.Columns {
			ans.Columns = append(ans.Columns, c.Name)
		}
	}
	return ans, nil
}

// accessCSVHeader heads the CSV of TableAccess answers: SHOW ACCESS's
// columns after the table and the user.
var accessCSVHeader = []string{"catalog", "schema", "table", "user", "role", "column_name", "access", "mask_type", "expression", "policy", "source", "store", "detail"}

// accessRecords are a's decisions as CSV records: columns, row filters,
// then gate one's, as SHOW ACCESS orders them.
func accessRecords(a *sql.TableAccess) [][]string {
	var out [][]string
	add := func(d sql.AccessDecision) {
		out = append(out, []string{a.Catalog, a.Schema, a.Table, a.User, a.Role, d.Name, d.Access, d.MaskType, d.Expression, d.Policy, d.Source, d.Store, d.Detail})
	}
	for _, d := range a.Columns {
		add(d)
	}
	for _, d := range a.RowFilters {
		add(d)
	}
	add(a.GateOne)
	return out
}

func (a *tableAnswer) csvRecords() [][]string {
	out := [][]string{accessCSVHeader}
	for _, u := range append(slices.Clone(a.Users), a.RoleRows...) {
		out = append(out, accessRecords(u)...)
	}
	return out
}

// userAnswer is every table one user opens, with their access to each.
type userAnswer struct {
	User   string             `json:"user"`
	Tables []*sql.TableAccess `json:"tables"`
}

func (rep *accessReport) user(ctx context.Context, id auth.Identity, catalog, user string) (*userAnswer, error) {
	if user == "" {
		return nil, pgerror.New(pgerror.InvalidParameterValue, "user is required")
	}
	ans := &userAnswer{User: user, Tables: []*sql.TableAccess{}}
	err := rep.eachAccess(ctx, id, catalog, []string{user}, func(a *sql.TableAccess) {
		if a.GateOne.Access == "allowed" {
			ans.Tables = append(ans.Tables, a)
		}
	})
	return ans, err
}

func (a *userAnswer) csvRecords() [][]string {
	out := [][]string{accessCSVHeader}
	for _, t := range a.Tables {
		out = append(out, accessRecords(t)...)
	}
	return out
}

// columnAnswer is who reads a column of that name, in every table the
// administrator sees that has one: raw or masked, and under which row
// filters.
type columnAnswer struct {
	Column  string         `json:"column"`
	Readers []columnReader `json:"readers"`
}

type columnReader struct {
	Table      sql.TableRef         `json:"table"`
	User       string               `json:"user"`
	Decision   sql.AccessDecision   `json:"decision"`
	RowFilters []sql.AccessDecision `json:"row_filters"`
	GateOne    sql.AccessDecision   `json:"gate_one"`
}

func (rep *accessReport) column(ctx context.Context, id auth.Identity, catalog, column string) (*columnAnswer, error) {
	if column == "" {
		return nil, pgerror.New(pgerror.InvalidParameterValue, "column is required")
	}
	s, err := rep.session(ctx, id, catalog)
	if err != nil {
		return nil, err
	}
	p, err := rep.knownPrincipals(ctx, s)
	s.Close()
	if err != nil {
		return nil, err
	}
	ans := &columnAnswer{Column: column, Readers: []columnReader{}}
	err = rep.eachAccess(ctx, id, catalog, p.Users, func(a *sql.TableAccess) {
		if a.GateOne.Access != "allowed" {
			return
		}
		i := slices.IndexFunc(a.Columns, func(d sql.AccessDecision) bool { return d.Name == column })
		if i < 0 || a.Columns[i].Access == policy.AccessHidden {
			return
		}
		ans.Readers = append(ans.Readers, columnReader{Table: sql.TableRef{Catalog: a.Catalog, Schema: a.Schema, Table: a.Table},
			User: a.User, Decision: a.Columns[i], RowFilters: a.RowFilters, GateOne: a.GateOne})
	})
	return ans, err
}

func (a *columnAnswer) csvRecords() [][]string {
	out := [][]string{{"catalog", "schema", "table", "user", "access", "mask_type", "expression", "policy", "source", "store", "row_filters"}}
	for _, r := range a.Readers {
		var filters []string
		for _, f := range r.RowFilters {
			filters = append(filters, f.Expression)
		}
		d := r.Decision
		out = append(out, []string{r.Table.Catalog, r.Table.Schema, r.Table.Table, r.User, d.Access, d.MaskType, d.Expression,
			d.Policy, d.Source, d.Store, strings.Join(filters, " AND ")})
	}
	return out
}

// eachAccess calls f with each user's TableAccess on every table of
// catalog the administrator sees, table by table.
func (rep *accessReport) eachAccess(ctx context.Context, id auth.Identity, catalog string, users []string, f func(*sql.TableAccess)) error {
	s, err := rep.session(ctx, id, catalog)
	if err != nil {
		return err
	}
	defer s.Close()
	tables, err := s.VisibleTables(ctx, catalog)
	if err != nil {
		return err
	}
	for _, t := range tables {
		for _, u := range users {
			a, err := s.TableAccess(ctx, t.Parts(), u)
			if err != nil {
				return err
			}
			f(a)
		}
	}
	return nil
}

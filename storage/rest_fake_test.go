package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	"github.com/apache/iceberg-go/table"
	"github.com/uptrace/bun/driver/sqliteshim"
)

// fakeREST is an Iceberg REST catalog server for tests. It answers with the
// REST specification's response shapes and keeps its tables in an
// iceberg-go SQL catalog over a local warehouse folder, so that table
// metadata and data files are real. It records the Authorization header of
// every request and refuses requests without one of the known tokens.
type fakeREST struct {
	t      *testing.T
	srv    *httptest.Server
	cat    *sqlcat.Catalog
	prefix string
	tokens map[string]bool // accepted bearer tokens

	mu       sync.Mutex
	requests []fakeRequest
	// fault, when set, may answer a request instead of the catalog:
	// it returns the HTTP status, the REST error type and message.
	fault func(r *http.Request, path string) (int, string, string, bool)
}

type restIdentJSON struct {
	Namespace []string `json:"namespace"`
	Name      string   `json:"name"`
}

type fakeRequest struct {
	Method, Path, Auth string
}

func newFakeREST(t *testing.T, tokens ...string) *fakeREST {
	t.Helper()
	dir := t.TempDir()
	db, err := sql.Open(sqliteshim.ShimName, sqliteDSN(filepath.Join(dir, "rest.db")))
	if err != nil {
		t.Fatal(err)
	}
	cat, err := sqlcat.NewCatalog("polaris", db, sqlcat.SQLite, iceberg.Properties{
		"init_catalog_tables": "true",
		"warehouse":           "file://" + filepath.ToSlash(filepath.Join(dir, "wh")),
	})
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeREST{t: t, cat: cat, prefix: "wh1", tokens: map[string]bool{}}
	for _, tok := range tokens {
		f.tokens[tok] = true
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(func() {
		f.srv.Close()
		_ = cat.Close()
		_ = db.Close()
	})
	return f
}

// seen returns the requests made so far and forgets them.
func (f *fakeREST) seen() []fakeRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.requests
	f.requests = nil
	return out
}

func (f *fakeREST) setFault(fn func(r *http.Request, path string) (int, string, string, bool)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fault = fn
}

func (f *fakeREST) serve(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.EscapedPath(), "/v1")
	f.mu.Lock()
	f.requests = append(f.requests, fakeRequest{Method: r.Method, Path: path, Auth: r.Header.Get("Authorization")})
	fault := f.fault
	f.mu.Unlock()

	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || !f.tokens[tok] {
		writeRESTError(w, http.StatusUnauthorized, "NotAuthorizedException", "not authorized")
		return
	}
	if fault != nil {
		if status, typ, msg, ok := fault(r, path); ok {
			writeRESTError(w, status, typ, msg)
			return
		}
	}
	if path == "/config" {
		if r.URL.Query().Get("warehouse") != "wh" {
			writeRESTError(w, http.StatusNotFound, "NotFoundException", "unknown warehouse")
			return
		}
		writeJSON(w, map[string]any{"defaults": map[string]string{}, "overrides": map[string]string{"prefix": f.prefix}})
		return
	}
	rest, ok := strings.CutPrefix(path, "/"+f.prefix+"/")
	if !ok {
		writeRESTError(w, http.StatusNotFound, "NotFoundException", "no such route")
		return
	}
	parts := strings.Split(rest, "/")
	for i, p := range parts {
		if u, err := url.PathUnescape(p); err == nil {
			parts[i] = u
		}
	}
	ctx := r.Context()
	switch {
	case len(parts) == 1 && parts[0] == "namespaces" && r.Method == http.MethodGet:
		ids, err := f.cat.ListNamespaces(ctx, nil)
		if f.fail(w, err, "") {
			return
		}
		writeJSON(w, map[string]any{"namespaces": ids})
	case len(parts) == 1 && parts[0] == "namespaces" && r.Method == http.MethodPost:
		var req struct {
			Namespace  []string          `json:"namespace"`
			Properties map[string]string `json:"properties"`
		}
		if f.decode(w, r, &req) {
			return
		}
		if f.fail(w, f.cat.CreateNamespace(ctx, req.Namespace, req.Properties), "") {
			return
		}
		writeJSON(w, map[string]any{"namespace": req.Namespace, "properties": req.Properties})
	case len(parts) == 2 && parts[0] == "namespaces" && r.Method == http.MethodGet:
		props, err := f.cat.LoadNamespaceProperties(ctx, table.Identifier{parts[1]})
		if f.fail(w, err, "") {
			return
		}
		writeJSON(w, map[string]any{"namespace": []string{parts[1]}, "properties": props})
	case len(parts) == 2 && parts[0] == "namespaces" && r.Method == http.MethodDelete:
		if f.fail(w, f.cat.DropNamespace(ctx, table.Identifier{parts[1]}), "") {
			return
		}
		w.WriteHeader(http.StatusNoContent)
	case len(parts) == 3 && parts[2] == "tables" && r.Method == http.MethodGet:
		var ids []map[string]any
		for id, err := range f.cat.ListTables(ctx, table.Identifier{parts[1]}) {
			if f.fail(w, err, parts[1]) {
				return
			}
			ids = append(ids, map[string]any{"namespace": id[:len(id)-1], "name": id[len(id)-1]})
		}
		writeJSON(w, map[string]any{"identifiers": ids})
	case len(parts) == 3 && parts[2] == "tables" && r.Method == http.MethodPost:
		f.createTable(w, r, parts[1])
	case len(parts) == 4 && parts[2] == "tables" && r.Method == http.MethodGet:
		tbl, err := f.cat.LoadTable(ctx, table.Identifier{parts[1], parts[3]})
		if f.fail(w, err, parts[1]) {
			return
		}
		writeLoadResult(w, tbl.MetadataLocation(), tbl.Metadata())
	case len(parts) == 4 && parts[2] == "tables" && r.Method == http.MethodPost:
		var req struct {
			Requirements table.Requirements `json:"requirements"`
			Updates      table.Updates      `json:"updates"`
		}
		if f.decode(w, r, &req) {
			return
		}
		meta, loc, err := f.cat.CommitTable(ctx, table.Identifier{parts[1], parts[3]}, req.Requirements, req.Updates)
		if err != nil && strings.Contains(err.Error(), "requirement failed") {
			writeRESTError(w, http.StatusConflict, "CommitFailedException", err.Error())
			return
		}
		if f.fail(w, err, parts[1]) {
			return
		}
		writeJSON(w, map[string]any{"metadata-location": loc, "metadata": meta})
	case len(parts) == 4 && parts[2] == "tables" && r.Method == http.MethodDelete:
		if f.fail(w, f.cat.DropTable(ctx, table.Identifier{parts[1], parts[3]}), parts[1]) {
			return
		}
		w.WriteHeader(http.StatusNoContent)
	case len(parts) == 2 && parts[0] == "tables" && parts[1] == "rename" && r.Method == http.MethodPost:
		var req struct {
			Source      restIdentJSON `json:"source"`
			Destination restIdentJSON `json:"destination"`
		}
		if f.decode(w, r, &req) {
			return
		}
		from := append(table.Identifier{}, append(req.Source.Namespace, req.Source.Name)...)
		to := append(table.Identifier{}, append(req.Destination.Namespace, req.Destination.Name)...)
		if _, err := f.cat.RenameTable(ctx, from, to); f.fail(w, err, req.Source.Namespace[0]) {
			return
		}
		w.WriteHeader(http.StatusNoContent)
	default:
		writeRESTError(w, http.StatusNotFound, "NotFoundException", "no such route: "+r.Method+" "+path)
	}
}

func (f *fakeREST) createTable(w http.ResponseWriter, r *http.Request, ns string) {
	var req struct {
		Name          string                 `json:"name"`
		Schema        *iceberg.Schema        `json:"schema"`
		PartitionSpec *iceberg.PartitionSpec `json:"partition-spec"`
		Properties    iceberg.Properties     `json:"properties"`
	}
	if f.decode(w, r, &req) {
		return
	}
	opts := []catalog.CreateTableOpt{catalog.WithProperties(req.Properties)}
	if req.PartitionSpec != nil {
		opts = append(opts, catalog.WithPartitionSpec(req.PartitionSpec))
	}
	tbl, err := f.cat.CreateTable(r.Context(), table.Identifier{ns, req.Name}, req.Schema, opts...)
	if f.fail(w, err, ns) {
		return
	}
	writeLoadResult(w, tbl.MetadataLocation(), tbl.Metadata())
}

func (f *fakeREST) decode(w http.ResponseWriter, r *http.Request, dst any) bool {
	if err := json.NewDecoder(r.Body).Decode(dst); err != nil {
		writeRESTError(w, http.StatusBadRequest, "BadRequestException", err.Error())
		return true
	}
	return false
}

// fail answers err with the REST status and error type the specification
// gives it; it reports whether there was an error. ns, when set, is the
// namespace of a table request, so that a missing namespace is told apart
// from a missing table as Polaris does.
func (f *fakeREST) fail(w http.ResponseWriter, err error, ns string) bool {
	if err == nil {
		return false
	}
	switch {
	case errors.Is(err, catalog.ErrNoSuchNamespace):
		writeRESTError(w, http.StatusNotFound, "NoSuchNamespaceException", err.Error())
	case errors.Is(err, catalog.ErrNoSuchTable):
		if ns != "" {
			if ok, _ := f.cat.CheckNamespaceExists(context.Background(), table.Identifier{ns}); !ok {
				writeRESTError(w, http.StatusNotFound, "NoSuchNamespaceException", "namespace does not exist: "+ns)
				return true
			}
		}
		writeRESTError(w, http.StatusNotFound, "NoSuchTableException", err.Error())
	case errors.Is(err, catalog.ErrNamespaceAlreadyExists), errors.Is(err, catalog.ErrTableAlreadyExists):
		writeRESTError(w, http.StatusConflict, "AlreadyExistsException", err.Error())
	case errors.Is(err, catalog.ErrNamespaceNotEmpty):
		writeRESTError(w, http.StatusConflict, "NamespaceNotEmptyException", err.Error())
	default:
		writeRESTError(w, http.StatusInternalServerError, "ServiceFailureException", err.Error())
	}
	return true
}

func writeLoadResult(w http.ResponseWriter, loc string, meta table.Metadata) {
	writeJSON(w, map[string]any{"metadata-location": loc, "metadata": meta, "config": map[string]string{}})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func writeRESTError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": typ, "code": status}})
}

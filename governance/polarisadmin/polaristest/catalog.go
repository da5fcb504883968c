package polaristest

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"
	icecat "github.com/apache/iceberg-go/catalog"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	"github.com/apache/iceberg-go/table"
	"github.com/uptrace/bun/driver/sqliteshim"
)

// catalog is one Polaris catalog: its catalog roles, and its namespaces
// and tables kept in an iceberg-go SQL catalog over a local warehouse, so
// that table metadata and data files are real.
type catalog struct {
	roles map[string]*catalogRole
	db    *sql.DB
	ice   *sqlcat.Catalog
}

func newCatalog(t testing.TB, name string) (*catalog, error) {
	dir := t.TempDir()
	db, err := sql.Open(sqliteshim.ShimName, "file:"+filepath.ToSlash(filepath.Join(dir, "catalog.db")))
	if err != nil {
		return nil, err
	}
	// One connection: the fake serves one process, and SQLite then never
	// reports a lock between its own connections.
	db.SetMaxOpenConns(1)
	ice, err := sqlcat.NewCatalog(name, db, sqlcat.SQLite, iceberg.Properties{
		"init_catalog_tables": "true",
		"warehouse":           "file://" + filepath.ToSlash(filepath.Join(dir, "warehouse")),
	})
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	return &catalog{roles: map[string]*catalogRole{}, db: db, ice: ice}, nil
}

func (c *catalog) close() {
	_ = c.ice.Close()
	_ = c.db.Close()
}

// securableExists reports whether the securable a grant names exists, and
// the message of Polaris's 404 when it does not.
func (c *catalog) securableExists(g Grant) (string, bool) {
	ctx := context.Background()
	switch g.Type {
	case "catalog":
		return "", true
	case "namespace":
		ok, _ := c.ice.CheckNamespaceExists(ctx, g.Namespace)
		return "Namespace " + strings.Join(g.Namespace, ".") + " not found", ok
	case "table":
		ok, _ := c.ice.CheckTableExists(ctx, append(slices.Clone(g.Namespace), g.TableName))
		return "Table " + strings.Join(append(slices.Clone(g.Namespace), g.TableName), ".") + " not found", ok
	}
	return "View " + strings.Join(append(slices.Clone(g.Namespace), g.ViewName), ".") + " not found", false
}

// superPrivileges is what satisfies a check for a privilege: Polaris's
// table (PolarisAuthorizerImpl's SUPER_PRIVILEGES) for the privileges the
// catalog operations here check.
var superPrivileges = map[string][]string{
	"NAMESPACE_CREATE":          {"CATALOG_MANAGE_CONTENT", "CATALOG_MANAGE_METADATA", "NAMESPACE_CREATE", "NAMESPACE_FULL_METADATA"},
	"NAMESPACE_DROP":            {"CATALOG_MANAGE_CONTENT", "CATALOG_MANAGE_METADATA", "NAMESPACE_DROP", "NAMESPACE_FULL_METADATA"},
	"NAMESPACE_LIST":            {"CATALOG_MANAGE_CONTENT", "CATALOG_MANAGE_METADATA", "NAMESPACE_CREATE", "NAMESPACE_FULL_METADATA", "NAMESPACE_LIST", "NAMESPACE_READ_PROPERTIES", "NAMESPACE_WRITE_PROPERTIES"},
	"NAMESPACE_READ_PROPERTIES": {"CATALOG_MANAGE_CONTENT", "CATALOG_MANAGE_METADATA", "NAMESPACE_FULL_METADATA", "NAMESPACE_READ_PROPERTIES", "NAMESPACE_WRITE_PROPERTIES"},
	"TABLE_CREATE":              {"CATALOG_MANAGE_CONTENT", "CATALOG_MANAGE_METADATA", "TABLE_CREATE", "TABLE_FULL_METADATA"},
	"TABLE_DROP":                {"CATALOG_MANAGE_CONTENT", "CATALOG_MANAGE_METADATA", "TABLE_DROP", "TABLE_FULL_METADATA"},
	"TABLE_LIST":                {"CATALOG_MANAGE_CONTENT", "CATALOG_MANAGE_METADATA", "TABLE_CREATE", "TABLE_FULL_METADATA", "TABLE_LIST", "TABLE_READ_DATA", "TABLE_READ_PROPERTIES", "TABLE_WRITE_DATA", "TABLE_WRITE_PROPERTIES"},
	"TABLE_READ_PROPERTIES":     {"CATALOG_MANAGE_CONTENT", "CATALOG_MANAGE_METADATA", "TABLE_FULL_METADATA", "TABLE_READ_DATA", "TABLE_READ_PROPERTIES", "TABLE_WRITE_DATA", "TABLE_WRITE_PROPERTIES"},
	"TABLE_WRITE_PROPERTIES":    {"CATALOG_MANAGE_CONTENT", "CATALOG_MANAGE_METADATA", "TABLE_FULL_METADATA", "TABLE_WRITE_DATA", "TABLE_WRITE_PROPERTIES"},
	"TABLE_READ_DATA":           {"CATALOG_MANAGE_CONTENT", "TABLE_READ_DATA", "TABLE_WRITE_DATA"},
	"TABLE_WRITE_DATA":          {"CATALOG_MANAGE_CONTENT", "TABLE_WRITE_DATA"},
}

// authorized decides an operation needing privilege on the securable
// (namespace, then table; both empty for the catalog) for principal, as
// Polaris does: any grant of any catalog role the principal's principal
// roles reach, on the securable or an ancestor, of the privilege or one
// including it. Holds s.mu.
func (s *Server) authorized(principal, cat, privilege string, ns []string, tbl string) bool {
	ok := superPrivileges[privilege]
	for _, prName := range s.principals[principal] {
		pr := s.principalRoles[prName]
		if pr == nil {
			continue
		}
		for _, crName := range pr.catalogRoles[cat] {
			cr := s.catalogs[cat].roles[crName]
			if cr == nil {
				continue
			}
			for _, g := range cr.grants {
				if !slices.Contains(ok, g.Privilege) {
					continue
				}
				switch g.Type {
				case "catalog":
					return true
				case "namespace":
					if len(g.Namespace) <= len(ns) && slices.Equal(g.Namespace, ns[:len(g.Namespace)]) {
						return true
					}
				case "table":
					if tbl != "" && slices.Equal(g.Namespace, ns) && g.TableName == tbl {
						return true
					}
				}
			}
		}
	}
	return false
}

// catalogAPI serves the Iceberg REST catalog under /api/catalog/v1.
func (s *Server) catalogAPI(w http.ResponseWriter, r *http.Request, path string, body []byte) {
	s.mu.Lock()
	principal, ok := s.principalOf(r)
	s.mu.Unlock()
	if !ok {
		writeError(w, http.StatusUnauthorized, "NotAuthorizedException", "Unable to authenticate")
		return
	}
	if path == "/config" {
		name := r.URL.Query().Get("warehouse")
		if s.catalogs[name] == nil {
			writeError(w, http.StatusNotFound, "NotFoundException", "Unable to find warehouse "+name)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"defaults": map[string]string{}, "overrides": map[string]string{"prefix": name}})
		return
	}
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i := range parts {
		if u, err := url.PathUnescape(parts[i]); err == nil {
			parts[i] = u
		}
	}
	c := s.catalogs[parts[0]]
	if c == nil {
		writeError(w, http.StatusNotFound, "NotFoundException", "Unable to find catalog "+parts[0])
		return
	}
	cat, p, m, ctx := parts[0], parts[1:], r.Method, r.Context()
	// need refuses with 403 unless principal holds privilege there.
	need := func(op, privilege string, ns []string, tbl string) bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.authorized(principal, cat, privilege, ns, tbl) {
			return true
		}
		writeError(w, http.StatusForbidden, "ForbiddenException",
			fmt.Sprintf("Principal '%s' with activated PrincipalRoles '%v' is not authorized for op %s", principal, s.principals[principal], op))
		return false
	}
	switch {
	case len(p) == 1 && p[0] == "namespaces" && m == http.MethodGet:
		if !need("LIST_NAMESPACES", "NAMESPACE_LIST", nil, "") {
			return
		}
		ids, err := c.ice.ListNamespaces(ctx, nil)
		if fail(w, c, err, "") {
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"namespaces": nonNil(ids)})
	case len(p) == 1 && p[0] == "namespaces" && m == http.MethodPost:
		var req struct {
			Namespace  []string          `json:"namespace"`
			Properties map[string]string `json:"properties"`
		}
		if !decode(w, body, &req) || !need("CREATE_NAMESPACE", "NAMESPACE_CREATE", nil, "") {
			return
		}
		if fail(w, c, c.ice.CreateNamespace(ctx, req.Namespace, req.Properties), "") {
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"namespace": req.Namespace, "properties": req.Properties})
	case len(p) == 2 && p[0] == "namespaces" && (m == http.MethodGet || m == http.MethodHead):
		ns := []string{p[1]}
		if exists, _ := c.ice.CheckNamespaceExists(ctx, ns); !exists {
			writeError(w, http.StatusNotFound, "NoSuchNamespaceException", "Namespace does not exist: "+p[1])
			return
		}
		if !need("LOAD_NAMESPACE_METADATA", "NAMESPACE_READ_PROPERTIES", ns, "") {
			return
		}
		props, err := c.ice.LoadNamespaceProperties(ctx, ns)
		if fail(w, c, err, "") {
			return
		}
		if m == http.MethodHead {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"namespace": ns, "properties": props})
	case len(p) == 2 && p[0] == "namespaces" && m == http.MethodDelete:
		if !need("DROP_NAMESPACE", "NAMESPACE_DROP", []string{p[1]}, "") {
			return
		}
		if fail(w, c, c.ice.DropNamespace(ctx, table.Identifier{p[1]}), "") {
			return
		}
		w.WriteHeader(http.StatusNoContent)
	case len(p) == 3 && p[2] == "tables" && m == http.MethodGet:
		if !need("LIST_TABLES", "TABLE_LIST", []string{p[1]}, "") {
			return
		}
		var ids []map[string]any
		for id, err := range c.ice.ListTables(ctx, table.Identifier{p[1]}) {
			if fail(w, c, err, p[1]) {
				return
			}
			ids = append(ids, map[string]any{"namespace": id[:len(id)-1], "name": id[len(id)-1]})
		}
		writeJSON(w, http.StatusOK, map[string]any{"identifiers": nonNil(ids)})
	case len(p) == 3 && p[2] == "tables" && m == http.MethodPost:
		if !need("CREATE_TABLE_DIRECT", "TABLE_CREATE", []string{p[1]}, "") {
			return
		}
		createTable(w, r.Context(), c, p[1], body)
	case len(p) == 4 && p[2] == "tables" && (m == http.MethodGet || m == http.MethodHead):
		id := table.Identifier{p[1], p[3]}
		if exists, _ := c.ice.CheckTableExists(ctx, id); !exists {
			fail(w, c, icecat.ErrNoSuchTable, p[1])
			return
		}
		op, privilege := "LOAD_TABLE", "TABLE_READ_PROPERTIES"
		if r.Header.Get("X-Iceberg-Access-Delegation") != "" {
			op, privilege = "LOAD_TABLE_WITH_READ_DELEGATION", "TABLE_READ_DATA"
		}
		if !need(op, privilege, []string{p[1]}, p[3]) {
			return
		}
		tbl, err := c.ice.LoadTable(ctx, id)
		if fail(w, c, err, p[1]) {
			return
		}
		if m == http.MethodHead {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"metadata-location": tbl.MetadataLocation(), "metadata": tbl.Metadata(), "config": map[string]string{}})
	case len(p) == 4 && p[2] == "tables" && m == http.MethodPost:
		var req struct {
			Requirements table.Requirements `json:"requirements"`
			Updates      table.Updates      `json:"updates"`
		}
		if !decode(w, body, &req) {
			return
		}
		id := table.Identifier{p[1], p[3]}
		if exists, _ := c.ice.CheckTableExists(ctx, id); !exists {
			fail(w, c, icecat.ErrNoSuchTable, p[1])
			return
		}
		if !need("UPDATE_TABLE", "TABLE_WRITE_PROPERTIES", []string{p[1]}, p[3]) {
			return
		}
		meta, loc, err := c.ice.CommitTable(ctx, id, req.Requirements, req.Updates)
		if err != nil && strings.Contains(err.Error(), "requirement failed") {
			writeError(w, http.StatusConflict, "CommitFailedException", err.Error())
			return
		}
		if fail(w, c, err, p[1]) {
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"metadata-location": loc, "metadata": meta})
	case len(p) == 4 && p[2] == "tables" && m == http.MethodDelete:
		if !need("DROP_TABLE_WITHOUT_PURGE", "TABLE_DROP", []string{p[1]}, p[3]) {
			return
		}
		if fail(w, c, c.ice.DropTable(ctx, table.Identifier{p[1], p[3]}), p[1]) {
			return
		}
		w.WriteHeader(http.StatusNoContent)
	default:
		writeError(w, http.StatusNotFound, "NotFoundException", "no such route: "+m+" "+path)
	}
}

func createTable(w http.ResponseWriter, ctx context.Context, c *catalog, ns string, body []byte) {
	var req struct {
		Name          string                 `json:"name"`
		Schema        *iceberg.Schema        `json:"schema"`
		PartitionSpec *iceberg.PartitionSpec `json:"partition-spec"`
		Properties    iceberg.Properties     `json:"properties"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "BadRequestException", "Invalid request body")
		return
	}
	opts := []icecat.CreateTableOpt{icecat.WithProperties(req.Properties)}
	if req.PartitionSpec != nil {
		opts = append(opts, icecat.WithPartitionSpec(req.PartitionSpec))
	}
	tbl, err := c.ice.CreateTable(ctx, table.Identifier{ns, req.Name}, req.Schema, opts...)
	if fail(w, c, err, ns) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"metadata-location": tbl.MetadataLocation(), "metadata": tbl.Metadata(), "config": map[string]string{}})
}

// fail answers err with the status and error type Polaris gives it; ns,
// for a table request, tells a missing namespace from a missing table.
func fail(w http.ResponseWriter, c *catalog, err error, ns string) bool {
	if err == nil {
		return false
	}
	switch {
	case errors.Is(err, icecat.ErrNoSuchNamespace):
		writeError(w, http.StatusNotFound, "NoSuchNamespaceException", err.Error())
	case errors.Is(err, icecat.ErrNoSuchTable):
		if ns != "" {
			if ok, _ := c.ice.CheckNamespaceExists(context.Background(), table.Identifier{ns}); !ok {
				writeError(w, http.StatusNotFound, "NoSuchNamespaceException", "Namespace does not exist: "+ns)
				return true
			}
		}
		writeError(w, http.StatusNotFound, "NoSuchTableException", "Table does not exist")
	case errors.Is(err, icecat.ErrNamespaceAlreadyExists), errors.Is(err, icecat.ErrTableAlreadyExists):
		writeError(w, http.StatusConflict, "AlreadyExistsException", err.Error())
	case errors.Is(err, icecat.ErrNamespaceNotEmpty):
		writeError(w, http.StatusConflict, "NamespaceNotEmptyException", err.Error())
	default:
		writeError(w, http.StatusInternalServerError, "ServiceFailureException", err.Error())
	}
	return true
}

// CreateTable creates namespace ns (if needed) and an empty table in
// catalog cat, as another engine writing to Polaris would.
func (s *Server) CreateTable(cat, ns, name string) error {
	c := s.catalogs[cat]
	if c == nil {
		return fmt.Errorf("no catalog %s", cat)
	}
	ctx := context.Background()
	if ok, _ := c.ice.CheckNamespaceExists(ctx, table.Identifier{ns}); !ok {
		if err := c.ice.CreateNamespace(ctx, table.Identifier{ns}, nil); err != nil {
			return err
		}
	}
	sc := iceberg.NewSchema(0, iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64})
	_, err := c.ice.CreateTable(ctx, table.Identifier{ns, name}, sc)
	return err
}

package polaristest

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// privilegesBySecurable are the privileges the management API accepts on
// each securable type (the CatalogPrivilege, NamespacePrivilege,
// TablePrivilege and ViewPrivilege enumerations; fine-grained table
// commit privileges left out).
var privilegesBySecurable = map[string][]string{
	"catalog": {"CATALOG_MANAGE_ACCESS", "CATALOG_MANAGE_CONTENT", "CATALOG_MANAGE_METADATA", "CATALOG_READ_PROPERTIES",
		"CATALOG_WRITE_PROPERTIES", "NAMESPACE_CREATE", "TABLE_CREATE", "VIEW_CREATE", "NAMESPACE_DROP", "TABLE_DROP",
		"VIEW_DROP", "NAMESPACE_LIST", "TABLE_LIST", "VIEW_LIST", "NAMESPACE_READ_PROPERTIES", "TABLE_READ_PROPERTIES",
		"VIEW_READ_PROPERTIES", "NAMESPACE_WRITE_PROPERTIES", "TABLE_WRITE_PROPERTIES", "VIEW_WRITE_PROPERTIES",
		"TABLE_READ_DATA", "TABLE_WRITE_DATA", "NAMESPACE_FULL_METADATA", "TABLE_FULL_METADATA", "VIEW_FULL_METADATA"},
	"namespace": {"CATALOG_MANAGE_ACCESS", "CATALOG_MANAGE_CONTENT", "CATALOG_MANAGE_METADATA", "NAMESPACE_CREATE",
		"TABLE_CREATE", "VIEW_CREATE", "NAMESPACE_DROP", "TABLE_DROP", "VIEW_DROP", "NAMESPACE_LIST", "TABLE_LIST",
		"VIEW_LIST", "NAMESPACE_READ_PROPERTIES", "TABLE_READ_PROPERTIES", "VIEW_READ_PROPERTIES",
		"NAMESPACE_WRITE_PROPERTIES", "TABLE_WRITE_PROPERTIES", "VIEW_WRITE_PROPERTIES", "TABLE_READ_DATA",
		"TABLE_WRITE_DATA", "NAMESPACE_FULL_METADATA", "TABLE_FULL_METADATA", "VIEW_FULL_METADATA"},
	"table": {"CATALOG_MANAGE_ACCESS", "TABLE_DROP", "TABLE_LIST", "TABLE_READ_PROPERTIES", "TABLE_WRITE_PROPERTIES",
		"TABLE_READ_DATA", "TABLE_WRITE_DATA", "TABLE_FULL_METADATA"},
	"view": {"CATALOG_MANAGE_ACCESS", "VIEW_DROP", "VIEW_LIST", "VIEW_READ_PROPERTIES", "VIEW_WRITE_PROPERTIES",
		"VIEW_FULL_METADATA"},
}

type roleJSON struct {
	Name       string            `json:"name"`
	Properties map[string]string `json:"properties,omitempty"`
}

// management serves /api/management/v1/...: the caller must hold
// service_admin.
func (s *Server) management(w http.ResponseWriter, r *http.Request, path string, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	caller, ok := s.principalOf(r)
	if !ok {
		writeError(w, http.StatusUnauthorized, "NotAuthorizedException", "Unable to authenticate")
		return
	}
	if !slices.Contains(s.principals[caller], ServiceAdminRole) {
		writeError(w, http.StatusForbidden, "ForbiddenException", "Principal '"+caller+"' is not authorized for op "+r.Method+" "+path)
		return
	}
	p := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i := range p {
		if u, err := url.PathUnescape(p[i]); err == nil {
			p[i] = u
		}
	}
	m := r.Method
	switch {
	case len(p) == 1 && p[0] == "principals" && m == http.MethodPost:
		var req struct {
			Principal roleJSON `json:"principal"`
		}
		if !decode(w, body, &req) {
			return
		}
		if _, ok := s.principals[req.Principal.Name]; ok {
			writeError(w, http.StatusConflict, "AlreadyExistsException", "Principal '"+req.Principal.Name+"' already exists")
			return
		}
		s.principals[req.Principal.Name] = []string{}
		writeJSON(w, http.StatusCreated, map[string]any{"principal": map[string]any{"name": req.Principal.Name},
			"credentials": map[string]string{"clientId": "id-" + req.Principal.Name, "clientSecret": "unused"}})
	case len(p) == 2 && p[0] == "principals" && m == http.MethodGet:
		if _, ok := s.principals[p[1]]; !ok {
			writeError(w, http.StatusNotFound, "NotFoundException", "Principal "+p[1]+" not found")
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"name": p[1]})
	case len(p) == 3 && p[0] == "principals" && p[2] == "principal-roles":
		s.principalRolesOf(w, m, p[1], body)
	case len(p) == 4 && p[0] == "principals" && p[2] == "principal-roles" && m == http.MethodDelete:
		roles, ok := s.principals[p[1]]
		if !ok || s.principalRoles[p[3]] == nil {
			writeError(w, http.StatusNotFound, "NotFoundException", "Principal or principal role not found")
			return
		}
		if !slices.Contains(roles, p[3]) {
			writeError(w, http.StatusNotFound, "NotFoundException", "Grant not found")
			return
		}
		s.principals[p[1]] = slices.DeleteFunc(roles, func(x string) bool { return x == p[3] })
		w.WriteHeader(http.StatusNoContent)
	case len(p) == 1 && p[0] == "principal-roles" && m == http.MethodGet:
		var out []roleJSON
		for _, n := range sortedKeys(s.principalRoles) {
			out = append(out, roleJSON{Name: n, Properties: s.principalRoles[n].props})
		}
		writeJSON(w, http.StatusOK, map[string]any{"roles": nonNil(out)})
	case len(p) == 1 && p[0] == "principal-roles" && m == http.MethodPost:
		var req struct {
			PrincipalRole roleJSON `json:"principalRole"`
		}
		if !decode(w, body, &req) {
			return
		}
		if _, ok := s.principalRoles[req.PrincipalRole.Name]; ok {
			writeError(w, http.StatusConflict, "AlreadyExistsException", "PrincipalRole '"+req.PrincipalRole.Name+"' already exists")
			return
		}
		s.principalRoles[req.PrincipalRole.Name] = &principalRole{props: req.PrincipalRole.Properties, catalogRoles: map[string][]string{}}
		writeJSON(w, http.StatusCreated, req.PrincipalRole)
	case len(p) == 2 && p[0] == "principal-roles" && (m == http.MethodGet || m == http.MethodDelete):
		pr, ok := s.principalRoles[p[1]]
		if !ok {
			writeError(w, http.StatusNotFound, "NotFoundException", "PrincipalRole "+p[1]+" not found")
			return
		}
		if m == http.MethodGet {
			writeJSON(w, http.StatusOK, roleJSON{Name: p[1], Properties: pr.props})
			return
		}
		delete(s.principalRoles, p[1])
		for k, roles := range s.principals {
			s.principals[k] = slices.DeleteFunc(roles, func(x string) bool { return x == p[1] })
		}
		w.WriteHeader(http.StatusNoContent)
	case len(p) == 4 && p[0] == "principal-roles" && p[2] == "catalog-roles":
		s.catalogRolesOfPrincipalRole(w, m, p[1], p[3], body)
	case len(p) == 5 && p[0] == "principal-roles" && p[2] == "catalog-roles" && m == http.MethodDelete:
		pr, ok := s.principalRoles[p[1]]
		if !ok || s.catalogs[p[3]] == nil || s.catalogs[p[3]].roles[p[4]] == nil {
			writeError(w, http.StatusNotFound, "NotFoundException", "Principal role, catalog or catalog role not found")
			return
		}
		if !slices.Contains(pr.catalogRoles[p[3]], p[4]) {
			writeError(w, http.StatusNotFound, "NotFoundException", "Grant not found")
			return
		}
		pr.catalogRoles[p[3]] = slices.DeleteFunc(pr.catalogRoles[p[3]], func(x string) bool { return x == p[4] })
		w.WriteHeader(http.StatusNoContent)
	case len(p) >= 3 && p[0] == "catalogs" && p[2] == "catalog-roles":
		c, ok := s.catalogs[p[1]]
		if !ok {
			writeError(w, http.StatusNotFound, "NotFoundException", "Catalog "+p[1]+" not found")
			return
		}
		s.catalogRolesAPI(w, m, p[1], c, p[3:], body)
	default:
		writeError(w, http.StatusNotFound, "NotFoundException", "no such route: "+m+" "+path)
	}
}

func (s *Server) principalRolesOf(w http.ResponseWriter, m, principal string, body []byte) {
	roles, ok := s.principals[principal]
	if !ok {
		writeError(w, http.StatusNotFound, "NotFoundException", "Principal "+principal+" not found")
		return
	}
	switch m {
	case http.MethodGet:
		var out []roleJSON
		for _, n := range roles {
			out = append(out, roleJSON{Name: n, Properties: s.principalRoles[n].props})
		}
		writeJSON(w, http.StatusOK, map[string]any{"roles": nonNil(out)})
	case http.MethodPut:
		var req struct {
			PrincipalRole roleJSON `json:"principalRole"`
		}
		if !decode(w, body, &req) {
			return
		}
		if s.principalRoles[req.PrincipalRole.Name] == nil {
			writeError(w, http.StatusNotFound, "NotFoundException", "PrincipalRole "+req.PrincipalRole.Name+" not found")
			return
		}
		if !slices.Contains(roles, req.PrincipalRole.Name) {
			s.principals[principal] = append(roles, req.PrincipalRole.Name)
		}
		w.WriteHeader(http.StatusCreated)
	default:
		writeError(w, http.StatusMethodNotAllowed, "BadRequestException", "method not allowed")
	}
}

func (s *Server) catalogRolesOfPrincipalRole(w http.ResponseWriter, m, prName, cat string, body []byte) {
	pr, ok := s.principalRoles[prName]
	if !ok || s.catalogs[cat] == nil {
		writeError(w, http.StatusNotFound, "NotFoundException", "Principal role or catalog not found")
		return
	}
	switch m {
	case http.MethodGet:
		var out []roleJSON
		for _, n := range pr.catalogRoles[cat] {
			out = append(out, roleJSON{Name: n, Properties: s.catalogs[cat].roles[n].props})
		}
		writeJSON(w, http.StatusOK, map[string]any{"roles": nonNil(out)})
	case http.MethodPut:
		var req struct {
			CatalogRole roleJSON `json:"catalogRole"`
		}
		if !decode(w, body, &req) {
			return
		}
		if s.catalogs[cat].roles[req.CatalogRole.Name] == nil {
			writeError(w, http.StatusNotFound, "NotFoundException", "CatalogRole "+req.CatalogRole.Name+" not found")
			return
		}
		if !slices.Contains(pr.catalogRoles[cat], req.CatalogRole.Name) {
			pr.catalogRoles[cat] = append(pr.catalogRoles[cat], req.CatalogRole.Name)
		}
		w.WriteHeader(http.StatusCreated)
	default:
		writeError(w, http.StatusMethodNotAllowed, "BadRequestException", "method not allowed")
	}
}

// catalogRolesAPI serves /catalogs/{c}/catalog-roles[/{r}[/grants]].
func (s *Server) catalogRolesAPI(w http.ResponseWriter, m, catName string, c *catalog, rest []string, body []byte) {
	switch {
	case len(rest) == 0 && m == http.MethodGet:
		var out []roleJSON
		for _, n := range sortedKeys(c.roles) {
			out = append(out, roleJSON{Name: n, Properties: c.roles[n].props})
		}
		writeJSON(w, http.StatusOK, map[string]any{"roles": nonNil(out)})
		return
	case len(rest) == 0 && m == http.MethodPost:
		var req struct {
			CatalogRole roleJSON `json:"catalogRole"`
		}
		if !decode(w, body, &req) {
			return
		}
		if _, ok := c.roles[req.CatalogRole.Name]; ok {
			writeError(w, http.StatusConflict, "AlreadyExistsException", "CatalogRole '"+req.CatalogRole.Name+"' already exists")
			return
		}
		c.roles[req.CatalogRole.Name] = &catalogRole{props: req.CatalogRole.Properties}
		writeJSON(w, http.StatusCreated, req.CatalogRole)
		return
	case len(rest) == 0:
		writeError(w, http.StatusMethodNotAllowed, "BadRequestException", "method not allowed")
		return
	}
	cr, ok := c.roles[rest[0]]
	if !ok {
		writeError(w, http.StatusNotFound, "NotFoundException", "CatalogRole "+rest[0]+" not found")
		return
	}
	switch {
	case len(rest) == 1 && m == http.MethodGet:
		writeJSON(w, http.StatusOK, roleJSON{Name: rest[0], Properties: cr.props})
	case len(rest) == 1 && m == http.MethodDelete:
		delete(c.roles, rest[0])
		for _, pr := range s.principalRoles {
			pr.catalogRoles[catName] = slices.DeleteFunc(pr.catalogRoles[catName], func(x string) bool { return x == rest[0] })
		}
		w.WriteHeader(http.StatusNoContent)
	case len(rest) == 2 && rest[1] == "grants" && m == http.MethodGet:
		writeJSON(w, http.StatusOK, map[string]any{"grants": nonNil(cr.grants)})
	case len(rest) == 2 && rest[1] == "grants" && (m == http.MethodPut || m == http.MethodPost):
		var req struct {
			Grant *Grant `json:"grant"`
		}
		if !decode(w, body, &req) {
			return
		}
		g := req.Grant
		if g == nil || !slices.Contains(privilegesBySecurable[g.Type], g.Privilege) {
			writeError(w, http.StatusBadRequest, "BadRequestException", "Invalid grant")
			return
		}
		if msg, ok := c.securableExists(*g); !ok {
			writeError(w, http.StatusNotFound, "NotFoundException", msg)
			return
		}
		i := slices.IndexFunc(cr.grants, func(x Grant) bool { return sameGrant(x, *g) })
		if m == http.MethodPut {
			if i < 0 {
				cr.grants = append(cr.grants, *g)
			}
		} else {
			if i < 0 {
				writeError(w, http.StatusNotFound, "NotFoundException", "Grant not found")
				return
			}
			cr.grants = slices.Delete(cr.grants, i, i+1)
		}
		w.WriteHeader(http.StatusCreated)
	default:
		writeError(w, http.StatusNotFound, "NotFoundException", "no such route")
	}
}

func sameGrant(a, b Grant) bool {
	return a.Type == b.Type && slices.Equal(a.Namespace, b.Namespace) && a.TableName == b.TableName &&
		a.ViewName == b.ViewName && a.Privilege == b.Privilege
}

func decode(w http.ResponseWriter, body []byte, dst any) bool {
	if err := json.Unmarshal(body, dst); err != nil {
		writeError(w, http.StatusBadRequest, "BadRequestException", "Invalid request body")
		return false
	}
	return true
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

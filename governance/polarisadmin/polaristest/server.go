package polaristest

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Grant is one privilege a catalog role holds on a securable, as the
// management API's GrantResource names it.
type Grant struct {
	Type      string   `json:"type"`
	Namespace []string `json:"namespace,omitempty"`
	TableName string   `json:"tableName,omitempty"`
	ViewName  string   `json:"viewName,omitempty"`
	Privilege string   `json:"privilege"`
}

// Request is one request the server answered, without its headers.
type Request struct {
	Method, Path, Body string
	Status             int
}

type principalRole struct {
	props        map[string]string
	catalogRoles map[string][]string // catalog → catalog roles granted
}

type catalogRole struct {
	props  map[string]string
	grants []Grant
}

// Server is the fake Polaris. Its methods are safe for concurrent use.
type Server struct {
	URL string

	t   testing.TB
	srv *httptest.Server

	mu             sync.Mutex
	clients        map[string][2]string // client id → secret, principal
	tokens         map[string]string    // token → principal
	principals     map[string][]string  // principal → principal roles
	principalRoles map[string]*principalRole
	catalogs       map[string]*catalog
	requests       []Request
	// down, when set, makes every request answer 503.
	down bool
	// delay, when set, holds every management request that long.
	delay time.Duration
}

// Bootstrap names: the root principal's client id, its principal role and
// the catalog role each catalog gives that role, as Polaris bootstraps
// them.
const (
	RootPrincipal     = "root"
	ServiceAdminRole  = "service_admin"
	CatalogAdminRole  = "catalog_admin"
	managementPrefix  = "/api/management/v1"
	catalogPrefix     = "/api/catalog/v1"
	tokenEndpointPath = catalogPrefix + "/oauth/tokens"
)

// New starts a fake Polaris with the root principal (client id "root",
// secret rootSecret) holding service_admin, and the given catalogs, each
// with its catalog_admin role (CATALOG_MANAGE_CONTENT) granted to
// service_admin. Table files go under a temporary directory.
func New(t testing.TB, rootSecret string, catalogs ...string) *Server {
	t.Helper()
	s := &Server{t: t, clients: map[string][2]string{RootPrincipal: {rootSecret, RootPrincipal}},
		tokens: map[string]string{}, principals: map[string][]string{RootPrincipal: {ServiceAdminRole}},
		principalRoles: map[string]*principalRole{ServiceAdminRole: {catalogRoles: map[string][]string{}}},
		catalogs:       map[string]*catalog{}}
	for _, name := range catalogs {
		c, err := newCatalog(t, name)
		if err != nil {
			t.Fatal(err)
		}
		c.roles[CatalogAdminRole] = &catalogRole{grants: []Grant{{Type: "catalog", Privilege: "CATALOG_MANAGE_CONTENT"}}}
		s.catalogs[name] = c
		s.principalRoles[ServiceAdminRole].catalogRoles[name] = []string{CatalogAdminRole}
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(func() {
		s.srv.Close()
		for _, c := range s.catalogs {
			c.close()
		}
	})
	return s
}

// AddPrincipal creates principals, as an operator does before users log
// in (createPrincipal).
func (s *Server) AddPrincipal(names ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range names {
		if _, ok := s.principals[n]; !ok {
			s.principals[n] = []string{}
		}
	}
}

// GrantCatalogAdmin gives principal the bootstrap catalog_admin role of
// every catalog through a principal role of its own name, as an operator
// makes a data administrator.
func (s *Server) GrantCatalogAdmin(principal, principalRoleName string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	pr := &principalRole{catalogRoles: map[string][]string{}}
	for name := range s.catalogs {
		pr.catalogRoles[name] = []string{CatalogAdminRole}
	}
	s.principalRoles[principalRoleName] = pr
	s.principals[principal] = append(s.principals[principal], principalRoleName)
}

// SetDown makes every request answer 503 (true) or be served (false).
func (s *Server) SetDown(down bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.down = down
}

// SetDelay holds every management request for d before answering.
func (s *Server) SetDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delay = d
}

// Requests returns the requests answered so far and forgets them.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.requests
	s.requests = nil
	return out
}

// Grants returns the grants of catalog role r in catalog c.
func (s *Server) Grants(c, r string) []Grant {
	s.mu.Lock()
	defer s.mu.Unlock()
	cat, ok := s.catalogs[c]
	if !ok || cat.roles[r] == nil {
		return nil
	}
	return slices.Clone(cat.roles[r].grants)
}

// recorder keeps the status of an answer for the request log.
type recorder struct {
	http.ResponseWriter
	status int
}

func (r *recorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	rec := &recorder{ResponseWriter: w, status: http.StatusOK}
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	down, delay := s.down, s.delay
	s.mu.Unlock()
	path := r.URL.EscapedPath()
	switch {
	case down:
		writeError(rec, http.StatusServiceUnavailable, "ServiceUnavailableException", "Polaris is down")
	case path == tokenEndpointPath && r.Method == http.MethodPost:
		s.issueToken(rec, string(body))
	case strings.HasPrefix(path, managementPrefix+"/"):
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
		}
		s.management(rec, r, strings.TrimPrefix(path, managementPrefix), body)
	case strings.HasPrefix(path, catalogPrefix+"/"):
		s.catalogAPI(rec, r, strings.TrimPrefix(path, catalogPrefix), body)
	default:
		writeError(rec, http.StatusNotFound, "NotFoundException", "no such route")
	}
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: path, Body: string(body), Status: rec.status})
	s.mu.Unlock()
}

// issueToken answers the client-credentials grant of Polaris's token
// endpoint (form-encoded; OAuth's error body on failure).
func (s *Server) issueToken(w http.ResponseWriter, form string) {
	v, err := url.ParseQuery(form)
	s.mu.Lock()
	defer s.mu.Unlock()
	cred, ok := s.clients[v.Get("client_id")]
	if err != nil || v.Get("grant_type") != "client_credentials" || !ok || cred[0] != v.Get("client_secret") {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "unauthorized_client", "error_description": "The client is not authorized"})
		return
	}
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	token := "principal:" + hex.EncodeToString(b)
	s.tokens[token] = cred[1]
	writeJSON(w, http.StatusOK, map[string]any{"access_token": token, "token_type": "bearer",
		"issued_token_type": "urn:ietf:params:oauth:token-type:access_token", "expires_in": 3600})
}

// principalOf is the principal a request's bearer token names: a token
// issued here, or a JWT whose preferred_username (else sub) names an
// existing principal and which has not expired. Holds s.mu.
func (s *Server) principalOf(r *http.Request) (string, bool) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || tok == "" {
		return "", false
	}
	if p, ok := s.tokens[tok]; ok {
		return p, true
	}
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return "", false
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return "", false
	}
	var claims struct {
		PreferredUsername string `json:"preferred_username"`
		Sub               string `json:"sub"`
		Exp               int64  `json:"exp"`
	}
	if json.Unmarshal(payload, &claims) != nil || claims.Exp < time.Now().Unix() {
		return "", false
	}
	name := claims.PreferredUsername
	if name == "" {
		name = claims.Sub
	}
	if _, ok := s.principals[name]; !ok {
		return "", false
	}
	return name, true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers with Polaris's (and the Iceberg REST) error body.
func writeError(w http.ResponseWriter, status int, typ, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": typ, "code": status}})
}

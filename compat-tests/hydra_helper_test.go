package compattests

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Ory Hydra is the real OpenID provider of the OIDC tests. It is a Go
// program, pinned as a tool of its own module (tools/hydra: its
// dependencies stay out of SQE's go.mod) and built by the tests through
// the go toolchain, so a fresh machine needs nothing installed. The
// binary is kept in the user's cache directory under a name made of
// Hydra's version and a hash of the tools module's go.sum: it is built
// once per version, not once per run.

const (
	// hydraToolDir is the tools module, relative to this package.
	hydraToolDir = "tools/hydra"
	// hydraModule is the module whose main package is the hydra command.
	hydraModule = "github.com/ory/hydra/v2"
	// hydraBuildTags gives Hydra its SQLite driver, which DSN=memory
	// needs (as Hydra's own release builds do).
	hydraBuildTags = "sqlite,sqlite_omit_load_extension"
	// hydraStartTimeout bounds the wait for a started Hydra to be ready.
	hydraStartTimeout = 60 * time.Second
	// hydraAccessTokenKeys is the JSON Web Key Set Hydra signs its JWT
	// access tokens with.
	hydraAccessTokenKeys = "hydra.jwt.access-token"
	// hydraRedirectURI is where the provider sends the browser with the
	// code. Nothing listens there: the test reads the code off the
	// redirect instead of following it.
	hydraRedirectURI = "http://127.0.0.1/callback"
)

// hydraBuild builds the Hydra binary at most once per test process.
type hydraBuild struct {
	once sync.Once
	path string
	err  error
}

// binary returns the cached Hydra binary, building it first if this
// version has not been built on this machine. A build that cannot be
// done is a failure under CI=true (make test must run these tests) and
// a skip elsewhere, naming the reason.
func (b *hydraBuild) binary(t *testing.T) string {
	t.Helper()
	b.once.Do(func() {
		start := time.Now()
		var built bool
		b.path, built, b.err = buildHydra()
		if built {
			// The test that waited for the build says how long it took.
			t.Logf("built Ory Hydra into %s in %s", b.path, time.Since(start).Round(time.Second))
		}
	})
	if b.err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("Ory Hydra, the OpenID provider of this test, could not be built: %v", b.err)
		}
		t.Skipf("Ory Hydra, the OpenID provider of this test, could not be built (this fails under CI=true): %v", b.err)
	}
	return b.path
}

// buildHydra returns the path of the cached binary for the tools
// module's Hydra version, building it there if it is missing (built).
func buildHydra() (path string, built bool, err error) {
	modDir, err := filepath.Abs(hydraToolDir)
	if err != nil {
		return "", false, err
	}
	version, sumHash, err := hydraToolVersion(modDir)
	if err != nil {
		return "", false, err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", false, fmt.Errorf("user cache dir: %w", err)
	}
	dir := filepath.Join(cache, "sqe-compat-tests", fmt.Sprintf("hydra-%s-%s-%s-%s", version, runtime.GOOS, runtime.GOARCH, sumHash))
	bin := filepath.Join(dir, "hydra")
	if fi, err := os.Stat(bin); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
		return bin, false, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", false, fmt.Errorf("hydra cache dir: %w", err)
	}
	// Built under a name of its own and renamed into place, so that a
	// build that dies half way, or two test processes building at once,
	// never leave a broken binary under the cached name.
	tmpDir, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", false, fmt.Errorf("hydra build dir: %w", err)
	}
	defer os.RemoveAll(tmpDir)
	tmp := filepath.Join(tmpDir, "hydra")
	cmd := exec.Command("go", "build", "-mod=readonly", "-tags", hydraBuildTags, "-o", tmp, hydraModule)
	cmd.Dir = modDir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1", "GOWORK=off", "GOFLAGS=-buildvcs=false")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", false, fmt.Errorf("go build %s %s in %s: %w\n%s", hydraModule, version, hydraToolDir, err, out.String())
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", false, fmt.Errorf("hydra binary into the cache: %w", err)
	}
	return bin, true, nil
}

// hydraToolVersion reads Hydra's version from the tools module's go.mod
// and hashes its go.sum, the build's cache key.
func hydraToolVersion(modDir string) (version, sumHash string, err error) {
	mod, err := os.ReadFile(filepath.Join(modDir, "go.mod"))
	if err != nil {
		return "", "", fmt.Errorf("hydra tools module: %w", err)
	}
	for _, line := range strings.Split(string(mod), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == hydraModule {
			version = f[1]
		}
	}
	if version == "" {
		return "", "", fmt.Errorf("%s/go.mod requires no %s", hydraToolDir, hydraModule)
	}
	sum, err := os.ReadFile(filepath.Join(modDir, "go.sum"))
	if err != nil {
		return "", "", fmt.Errorf("hydra tools module: %w", err)
	}
	h := sha256.Sum256(sum)
	return version, hex.EncodeToString(h[:6]), nil
}

// hydra is one running Hydra: in-memory storage, JWT access tokens, both
// its public and its admin API on loopback ports.
type hydra struct {
	issuer   string // the public URL, which is also the issuer
	adminURL string
	cmd      *exec.Cmd
	logs     *syncBuffer
	exited   chan struct{}
	waitErr  error
}

// startHydra runs `hydra serve all` and stops it when the test ends.
// Hydra takes no port 0, so free ports are picked first; a start that
// loses a port to another process is tried again.
func startHydra(t *testing.T) *hydra {
	t.Helper()
	bin := shared.hydra.binary(t)
	var lastErr error
	for range 3 {
		h, err := tryStartHydra(t, bin)
		if err == nil {
			t.Cleanup(func() {
				if err := h.stop(); err != nil {
					t.Errorf("stop hydra: %v\nhydra log:\n%s", err, h.logs.String())
				}
			})
			return h
		}
		lastErr = err
	}
	t.Fatalf("start hydra: %v", lastErr)
	return nil
}

func tryStartHydra(t *testing.T, bin string) (*hydra, error) {
	publicPort, err := freePort()
	if err != nil {
		return nil, err
	}
	adminPort, err := freePort()
	if err != nil {
		return nil, err
	}
	secret := make([]byte, 24)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	issuer := "http://127.0.0.1:" + publicPort
	// The login and consent "apps" are this test, which reads the
	// challenges off the redirects; nothing listens at these URLs.
	config := fmt.Sprintf(`dsn: memory
serve:
  public: {host: 127.0.0.1, port: %s}
  admin: {host: 127.0.0.1, port: %s}
urls:
  self: {issuer: %q}
  login: %q
  consent: %q
secrets:
  system: [%q]
strategies:
  access_token: jwt
ttl:
  access_token: 1h
log:
  level: warn
`, publicPort, adminPort, issuer, issuer+"/test-login", issuer+"/test-consent", hex.EncodeToString(secret))
	configFile := filepath.Join(t.TempDir(), "hydra.yml")
	if err := os.WriteFile(configFile, []byte(config), 0o600); err != nil {
		return nil, err
	}

	// --dev allows the plain-http issuer on loopback; --sqa-opt-out keeps
	// Hydra from sending usage reports.
	cmd := exec.Command(bin, "serve", "all", "--dev", "--sqa-opt-out", "--config", configFile)
	cmd.Env = append(os.Environ(), "SQA_OPT_OUT=true")
	cmd.SysProcAttr = serverProcAttr()
	h := &hydra{issuer: issuer, adminURL: "http://127.0.0.1:" + adminPort, cmd: cmd, logs: &syncBuffer{}, exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = h.logs, h.logs
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start hydra: %w", err)
	}
	go func() {
		h.waitErr = cmd.Wait()
		close(h.exited)
	}()

	deadline := time.Now().Add(hydraStartTimeout)
	client := &http.Client{Timeout: 2 * time.Second}
	for {
		if ready(client, h.adminURL+"/health/ready") && ready(client, h.issuer+"/.well-known/openid-configuration") {
			return h, nil
		}
		select {
		case <-h.exited:
			return nil, fmt.Errorf("hydra exited before it was ready (%v):\n%s", h.waitErr, h.logs.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = h.kill()
			return nil, fmt.Errorf("hydra not ready within %s:\n%s", hydraStartTimeout, h.logs.String())
		}
	}
}

func ready(c *http.Client, u string) bool {
	resp, err := c.Get(u)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// freePort returns a loopback port nothing listens on at the moment.
func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("free port: %w", err)
	}
	defer l.Close()
	_, port, err := net.SplitHostPort(l.Addr().String())
	return port, err
}

// stop interrupts Hydra and waits for it; after stopTimeout it is killed.
func (h *hydra) stop() error {
	select {
	case <-h.exited:
		return nil
	default:
	}
	if err := h.cmd.Process.Signal(os.Interrupt); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("interrupt hydra (pid %d): %w", h.cmd.Process.Pid, err)
	}
	select {
	case <-h.exited:
		return nil
	case <-time.After(stopTimeout):
		_ = h.kill()
		return fmt.Errorf("hydra (pid %d) still running %s after SIGINT; killed", h.cmd.Process.Pid, stopTimeout)
	}
}

func (h *hydra) kill() error {
	err := h.cmd.Process.Kill()
	<-h.exited
	return err
}

// hydraClient is an OAuth 2.0 client registered with Hydra.
type hydraClient struct {
	ID     string
	Secret string
}

// hydraClientSpec is what a test asks of a new client.
type hydraClientSpec struct {
	// audiences are those the client may request (default just "sqe").
	audiences []string
	// accessTokenLifespan replaces Hydra's ttl.access_token for the
	// client's authorization-code tokens (a Go duration; empty: keep).
	accessTokenLifespan string
}

// createClient registers a confidential client for the authorization
// code flow through the admin API.
func (h *hydra) createClient(t *testing.T, spec hydraClientSpec) hydraClient {
	t.Helper()
	if len(spec.audiences) == 0 {
		spec.audiences = []string{"sqe"}
	}
	body := map[string]any{
		"client_name":                "sqe-compat-tests",
		"grant_types":                []string{"authorization_code"},
		"response_types":             []string{"code"},
		"scope":                      "openid",
		"audience":                   spec.audiences,
		"redirect_uris":              []string{hydraRedirectURI},
		"token_endpoint_auth_method": "client_secret_basic",
	}
	if spec.accessTokenLifespan != "" {
		body["authorization_code_grant_access_token_lifespan"] = spec.accessTokenLifespan
	}
	var created struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	h.admin(t, http.MethodPost, "/admin/clients", body, http.StatusCreated, &created)
	if created.ClientID == "" || created.ClientSecret == "" {
		t.Fatalf("hydra created a client without an id or secret: %+v", created)
	}
	return hydraClient{ID: created.ClientID, Secret: created.ClientSecret}
}

// tokenRequest is one user's login through the authorization code flow.
type tokenRequest struct {
	subject  string
	audience string // requested audience (default "sqe")
	// claims go into the consent session's access_token part, which
	// Hydra puts into its JWT access tokens under "ext".
	claims map[string]any
}

// accessToken drives the authorization code flow as the browser, the
// login app and the consent app at once: it starts the authorization
// request, accepts the login (subject = the user) and the consent
// (granting the audience and the claims) through the admin API, takes
// the code off the final redirect and exchanges it at the token
// endpoint. It returns the JWT access token.
func (h *hydra) accessToken(t *testing.T, c hydraClient, req tokenRequest) string {
	t.Helper()
	if req.audience == "" {
		req.audience = "sqe"
	}
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	browser := &http.Client{
		Jar:     jar,
		Timeout: 10 * time.Second,
		// Each redirect is looked at: the ones to the login and consent
		// apps carry a challenge, the last one the code.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	state := randomString(t)
	authURL := h.issuer + "/oauth2/auth?" + url.Values{
		"client_id":     {c.ID},
		"response_type": {"code"},
		"scope":         {"openid"},
		"redirect_uri":  {hydraRedirectURI},
		"audience":      {req.audience},
		"state":         {state},
	}.Encode()

	loginChallenge := redirectParam(t, browser, authURL, "login_challenge").Get("login_challenge")
	var accepted struct {
		RedirectTo string `json:"redirect_to"`
	}
	h.admin(t, http.MethodPut, "/admin/oauth2/auth/requests/login/accept?login_challenge="+url.QueryEscape(loginChallenge),
		map[string]any{"subject": req.subject}, http.StatusOK, &accepted)

	consentChallenge := redirectParam(t, browser, accepted.RedirectTo, "consent_challenge").Get("consent_challenge")
	h.admin(t, http.MethodPut, "/admin/oauth2/auth/requests/consent/accept?consent_challenge="+url.QueryEscape(consentChallenge),
		map[string]any{
			"grant_scope":                 []string{"openid"},
			"grant_access_token_audience": []string{req.audience},
			"session":                     map[string]any{"access_token": req.claims},
		}, http.StatusOK, &accepted)

	callback := redirectParam(t, browser, accepted.RedirectTo, "code")
	if got := callback.Get("state"); got != state {
		t.Fatalf("callback state = %q, want the request's %q", got, state)
	}
	code := callback.Get("code")

	form := url.Values{
		"grant_type":   {"authorization_code"},
		"code":         {code},
		"redirect_uri": {hydraRedirectURI},
	}
	tokenReq, err := http.NewRequest(http.MethodPost, h.issuer+"/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	tokenReq.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	tokenReq.SetBasicAuth(url.QueryEscape(c.ID), url.QueryEscape(c.Secret))
	resp, err := browser.Do(tokenReq)
	if err != nil {
		t.Fatalf("token endpoint: %v", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("token endpoint answered %s: %s", resp.Status, raw)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
	}
	if err := json.Unmarshal(raw, &tok); err != nil {
		t.Fatalf("decode token response: %v", err)
	}
	if strings.Count(tok.AccessToken, ".") != 2 {
		t.Fatalf("hydra issued an access token that is not a JWT (is strategies.access_token jwt?)")
	}
	return tok.AccessToken
}

// redirectParam GETs u, which must answer with a redirect whose Location
// carries the query parameter param, and returns that query.
func redirectParam(t *testing.T, browser *http.Client, u, param string) url.Values {
	t.Helper()
	resp, err := browser.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	loc, err := resp.Location()
	if err != nil {
		t.Fatalf("GET %s answered %s without a redirect: %s", u, resp.Status, body)
	}
	q := loc.Query()
	if q.Get(param) == "" {
		t.Fatalf("redirect to %s carries no %s (error %q: %q)", loc.Redacted(), param, q.Get("error"), q.Get("error_description"))
	}
	return q
}

// admin calls Hydra's admin API with a JSON body, checks the status and
// decodes the answer into out (when out is not nil).
func (h *hydra) admin(t *testing.T, method, path string, body any, wantStatus int, out any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, h.adminURL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("hydra admin %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != wantStatus {
		t.Fatalf("hydra admin %s %s answered %s, want %d: %s", method, path, resp.Status, wantStatus, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("hydra admin %s %s: decode %s: %v", method, path, raw, err)
		}
	}
}

// createAccessTokenKey adds a new RS256 key with the given kid to the set
// Hydra signs access tokens with. Hydra signs with the newest key.
func (h *hydra) createAccessTokenKey(t *testing.T, kid string) {
	t.Helper()
	var set struct {
		Keys []struct {
			KID string `json:"kid"`
		} `json:"keys"`
	}
	h.admin(t, http.MethodPost, "/admin/keys/"+hydraAccessTokenKeys,
		map[string]string{"alg": "RS256", "kid": kid, "use": "sig"}, http.StatusCreated, &set)
	if len(set.Keys) == 0 || set.Keys[0].KID != kid {
		t.Fatalf("hydra created keys %+v, want kid %q", set.Keys, kid)
	}
}

// deleteAccessTokenKey removes a key from that set.
func (h *hydra) deleteAccessTokenKey(t *testing.T, kid string) {
	t.Helper()
	h.admin(t, http.MethodDelete, "/admin/keys/"+hydraAccessTokenKeys+"/"+url.PathEscape(kid), nil, http.StatusNoContent, nil)
}

// publishedKeyIDs lists the key ids of the provider's public JWKS, the
// document SQE fetches.
func (h *hydra) publishedKeyIDs(t *testing.T) []string {
	t.Helper()
	var set struct {
		Keys []struct {
			KID string `json:"kid"`
		} `json:"keys"`
	}
	getJSON(t, h.issuer+"/.well-known/jwks.json", &set)
	ids := make([]string, len(set.Keys))
	for i, k := range set.Keys {
		ids[i] = k.KID
	}
	return ids
}

// getJSON GETs u and decodes its JSON answer into out.
func getJSON(t *testing.T, u string, out any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s answered %s", u, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatalf("GET %s: decode: %v", u, err)
	}
}

// jwtParts decodes a JWT's header and payload without verifying it: the
// tests look at what the provider put there.
func jwtParts(t *testing.T, token string) (header, payload map[string]any) {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("token has %d parts, want 3", len(parts))
	}
	decode := func(s string) map[string]any {
		raw, err := base64.RawURLEncoding.DecodeString(s)
		if err != nil {
			t.Fatalf("decode token part: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("decode token part: %v", err)
		}
		return m
	}
	return decode(parts[0]), decode(parts[1])
}

func randomString(t *testing.T) string {
	t.Helper()
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

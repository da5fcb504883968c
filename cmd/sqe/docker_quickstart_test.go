package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/sqe-db/sqe/governance/grants"
)

// quickstartDir is docker/quickstart, from this package.
const quickstartDir = "../../docker/quickstart"

// composeFile is the part of compose.yaml these tests read.
type composeFile struct {
	Services map[string]composeService `yaml:"services"`
	Secrets  map[string]struct {
		File string `yaml:"file"`
	} `yaml:"secrets"`
	Volumes map[string]any `yaml:"volumes"`
}

type composeService struct {
	Image       string            `yaml:"image"`
	Entrypoint  []string          `yaml:"entrypoint"`
	Build       map[string]string `yaml:"build"`
	Restart     string            `yaml:"restart"`
	Ports       []string          `yaml:"ports"`
	Environment map[string]string `yaml:"environment"`
	Volumes     []string          `yaml:"volumes"`
	Secrets     []string          `yaml:"secrets"`
	DependsOn   map[string]struct {
		Condition string `yaml:"condition"`
	} `yaml:"depends_on"`
	Healthcheck *struct {
		Test     any    `yaml:"test"`
		Interval string `yaml:"interval"`
		Retries  int    `yaml:"retries"`
	} `yaml:"healthcheck"`
}

// job reports a one-shot setup service, which runs to completion and so
// has no healthcheck.
func (s composeService) job() bool { return s.Restart == "no" }

func readCompose(t *testing.T) composeFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(quickstartDir, "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var c composeFile
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	return c
}

// TestQuickstartCompose checks compose.yaml as `docker compose config`
// would, and the properties the quickstart relies on: images, health,
// order of start, loopback-only ports, files that exist.
func TestQuickstartCompose(t *testing.T) {
	c := readCompose(t)
	for _, want := range []string{"sqe", "polaris", "ranger", "ranger-db", "ranger-solr", "keycloak", "minio",
		"minio-setup", "ranger-setup", "polaris-setup", "sqe-setup", "trino", "trino-worker"} {
		if _, ok := c.Services[want]; !ok {
			t.Errorf("compose.yaml lacks the service %s", want)
		}
	}
	published := map[string]string{}
	for name, s := range c.Services {
		if s.Image == "" {
			t.Errorf("%s: no image", name)
		}
		switch {
		case s.job() && s.Healthcheck != nil:
			t.Errorf("%s: a setup job (restart \"no\") has a healthcheck", name)
		case !s.job() && (s.Healthcheck == nil || s.Healthcheck.Test == nil || s.Healthcheck.Interval == "" || s.Healthcheck.Retries == 0):
			t.Errorf("%s: no complete healthcheck (test, interval, retries)", name)
		}
		for dep, d := range s.DependsOn {
			target, ok := c.Services[dep]
			switch {
			case !ok:
				t.Errorf("%s depends on %s, which is not a service", name, dep)
			case d.Condition == "service_healthy" && target.Healthcheck == nil:
				t.Errorf("%s waits for %s to be healthy, which has no healthcheck", name, dep)
			case d.Condition == "service_completed_successfully" && !target.job():
				t.Errorf("%s waits for %s to complete, which is not a setup job", name, dep)
			case d.Condition != "service_healthy" && d.Condition != "service_completed_successfully":
				t.Errorf("%s depends on %s with condition %q: wait for health or completion", name, dep, d.Condition)
			}
		}
		for _, p := range s.Ports {
			host, rest, _ := strings.Cut(p, ":")
			if net.ParseIP(host) == nil || !net.ParseIP(host).IsLoopback() {
				t.Errorf("%s publishes %q beyond the host's loopback", name, p)
			}
			hostPort, _, _ := strings.Cut(rest, ":")
			if other, dup := published[hostPort]; dup {
				t.Errorf("%s and %s both publish port %s", name, other, hostPort)
			}
			published[hostPort] = name
		}
		for _, v := range s.Volumes {
			source, _, _ := strings.Cut(v, ":")
			if !strings.HasPrefix(source, ".") {
				if _, ok := c.Volumes[source]; !ok {
					t.Errorf("%s mounts the volume %s, which is not declared", name, source)
				}
				continue
			}
			if _, err := os.Stat(filepath.Join(quickstartDir, source)); err != nil {
				t.Errorf("%s mounts %s: %v", name, source, err)
			}
		}
		for _, secret := range s.Secrets {
			if _, ok := c.Secrets[secret]; !ok {
				t.Errorf("%s uses the secret %s, which is not declared", name, secret)
			}
		}
	}
	if c.Services["sqe"].Build["dockerfile"] != "docker/Dockerfile" {
		t.Errorf("sqe is not built from docker/Dockerfile: %v", c.Services["sqe"].Build)
	}
	if got := published["5433"]; got != "sqe" {
		t.Errorf("port 5433 is published by %q, want sqe", got)
	}
	for name, s := range c.Secrets {
		if _, err := os.Stat(filepath.Join(quickstartDir, s.File)); err != nil {
			t.Errorf("secret %s: %v", name, err)
		}
	}
}

// TestQuickstartSQEConfig loads the quickstart's sqe.toml as the sqe
// container does, with its environment and secret files, and checks the
// settings against the other services: hosts are compose services, the
// issuer is the realm Keycloak imports, roles and users exist there.
func TestQuickstartSQEConfig(t *testing.T) {
	c := readCompose(t)
	s := c.Services["sqe"]
	cfg := loadQuickstartConfig(t, c)
	maskKey, err := readSecretFile(filepath.Join(quickstartDir, c.Secrets["sqe_mask_key"].File))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Policy.MaskKey != maskKey || cfg.AccessControl.Ranger.AdminPassword == "" || cfg.Policy.Ranger.AdminPassword == "" {
		t.Errorf("secrets not read from their files: mask key set %v, passwords set %v %v",
			cfg.Policy.MaskKey != "", cfg.AccessControl.Ranger.AdminPassword != "", cfg.Policy.Ranger.AdminPassword != "")
	}
	if cfg.PGWire.Listen != "0.0.0.0:5433" || cfg.AccessControl.Backend != "ranger" || cfg.Policy.Engine != "ranger" ||
		cfg.AccessControl.Ranger.ServiceName != "polaris" || cfg.Policy.Ranger.ServiceName != "query" || cfg.Log.Format != "json" {
		t.Errorf("quickstart settings: listen %s, gate one %s/%s, gate two %s/%s, log %s", cfg.PGWire.Listen,
			cfg.AccessControl.Backend, cfg.AccessControl.Ranger.ServiceName, cfg.Policy.Engine, cfg.Policy.Ranger.ServiceName, cfg.Log.Format)
	}
	if len(cfg.Catalogs) != 1 || cfg.Catalogs[0].Name != "sales_wh" || cfg.Catalogs[0].Type != "rest" ||
		cfg.Catalogs[0].ServiceToken != "" || cfg.Catalogs[0].Credential != "" {
		t.Errorf("catalogs: want sales_wh, rest, with each user's own token: %+v", cfg.Catalogs)
	}
	for what, raw := range map[string]string{
		"auth.issuer": cfg.Auth.Issuer, "access_control.url": cfg.AccessControl.URL, "policy.ranger.url": cfg.Policy.Ranger.URL,
		"catalog uri": cfg.Catalogs[0].URI, "s3.endpoint": cfg.Catalogs[0].Properties["s3.endpoint"],
	} {
		u, err := url.Parse(raw)
		if err != nil || u.Hostname() == "" {
			t.Errorf("%s %q is not a URL", what, raw)
			continue
		}
		if _, ok := c.Services[u.Hostname()]; !ok {
			t.Errorf("%s %q names the host %s, which is not a compose service", what, raw, u.Hostname())
		}
		if _, ok := s.DependsOn[u.Hostname()]; !ok && !dependsIndirectly(c, "sqe", u.Hostname()) {
			t.Errorf("sqe does not wait for %s (%s)", u.Hostname(), what)
		}
	}

	realm := readRealm(t)
	if want := "http://keycloak:8080/realms/" + realm.Realm; cfg.Auth.Issuer != want {
		t.Errorf("auth.issuer %q, want the imported realm's %q", cfg.Auth.Issuer, want)
	}
	if cfg.Auth.RolesClaim != "realm_access.roles" || !realm.audience(cfg.Auth.Audience) {
		t.Errorf("roles claim %q, audience %q: Keycloak's tokens carry realm_access.roles and the sqe client's audience", cfg.Auth.RolesClaim, cfg.Auth.Audience)
	}
	roles := map[string][]string{}
	for _, u := range realm.Users {
		roles[u.Username] = u.RealmRoles
	}
	for user, want := range map[string][]string{
		"alice": {"analyst"}, "bob": {"analyst", "engineer"}, "carol": {"analyst", "engineer", "sqe_admin"}, "dave": {},
	} {
		got, ok := roles[user]
		if !ok || !slices.Equal(got, want) {
			t.Errorf("Keycloak user %s has roles %v (present %v), want %v", user, got, ok, want)
		}
	}
	for _, r := range cfg.Auth.AdminRoles {
		if !slices.ContainsFunc(realm.Roles.Realm, func(x struct{ Name string }) bool { return x.Name == r }) {
			t.Errorf("admin role %s is not a realm role", r)
		}
	}
}

// loadQuickstartConfig loads the quickstart's sqe.toml as the sqe
// container does, with its environment and secret files.
func loadQuickstartConfig(t *testing.T, c composeFile) Config {
	t.Helper()
	s := c.Services["sqe"]
	var mountedConfig string
	for _, v := range s.Volumes {
		source, target, _ := strings.Cut(v, ":")
		if strings.HasPrefix(target, "/etc/sqe/sqe.toml") {
			mountedConfig = filepath.Join(quickstartDir, source)
		}
	}
	if mountedConfig == "" {
		t.Fatal("sqe mounts no /etc/sqe/sqe.toml")
	}
	// Compose mounts each secret at /run/secrets/<name>; here the same
	// variables point at the files in the repository.
	var environ []string
	for k, v := range s.Environment {
		if name, ok := strings.CutPrefix(v, "/run/secrets/"); ok {
			if !slices.Contains(s.Secrets, name) {
				t.Errorf("sqe's %s names the secret %s, which the service is not given", k, name)
			}
			v = filepath.Join(quickstartDir, c.Secrets[name].File)
		}
		environ = append(environ, k+"="+v)
	}
	cfg, err := loadConfig(mountedConfig, true, environ)
	if err != nil {
		t.Fatalf("the quickstart's configuration does not load: %v", err)
	}
	return cfg
}

// dependsIndirectly reports whether from waits for to through others.
func dependsIndirectly(c composeFile, from, to string) bool {
	for dep := range c.Services[from].DependsOn {
		if dep == to || dependsIndirectly(c, dep, to) {
			return true
		}
	}
	return false
}

// keycloakRealm is the part of the realm export these tests read.
type keycloakRealm struct {
	Realm string `json:"realm"`
	Roles struct {
		Realm []struct{ Name string } `json:"realm"`
	} `json:"roles"`
	Clients []struct {
		ClientID        string `json:"clientId"`
		ProtocolMappers []struct {
			ProtocolMapper string            `json:"protocolMapper"`
			Config         map[string]string `json:"config"`
		} `json:"protocolMappers"`
	} `json:"clients"`
	Users []struct {
		Username   string   `json:"username"`
		RealmRoles []string `json:"realmRoles"`
	} `json:"users"`
}

// audience reports whether some client's tokens carry aud.
func (r keycloakRealm) audience(aud string) bool {
	for _, c := range r.Clients {
		for _, m := range c.ProtocolMappers {
			if m.ProtocolMapper == "oidc-audience-mapper" && m.Config["included.custom.audience"] == aud && m.Config["access.token.claim"] == "true" {
				return true
			}
		}
	}
	return false
}

func readRealm(t *testing.T) keycloakRealm {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(quickstartDir, "keycloak", "sqe-realm.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r keycloakRealm
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("sqe-realm.json: %v", err)
	}
	return r
}

// TestQuickstartScripts: every setup script and the walk-through are
// valid shell and pass shellcheck (make test installs it; a missing one is
// a failure).
func TestQuickstartScripts(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join(quickstartDir, "*", "*.sh"))
	if err != nil || len(scripts) < 4 {
		t.Fatalf("setup scripts %v (%v), want ranger, polaris, sqe and trino's", scripts, err)
	}
	walkthroughs, err := filepath.Glob(filepath.Join(quickstartDir, "*.sh"))
	if err != nil || !slices.Contains(walkthroughs, filepath.Join(quickstartDir, "remote-walkthrough.sh")) {
		t.Fatalf("walk-through scripts %v (%v), want remote-walkthrough.sh", walkthroughs, err)
	}
	scripts = append(scripts, walkthroughs...)
	shellcheck, err := exec.LookPath("shellcheck")
	if err != nil {
		t.Fatalf("shellcheck not found in PATH (%v): install the shellcheck package (make test does this)", err)
	}
	for _, script := range scripts {
		for _, cmd := range [][]string{{"bash", "-n", script}, {shellcheck, "--severity=style", script}} {
			if out, err := exec.Command(cmd[0], cmd[1:]...).CombinedOutput(); err != nil {
				t.Errorf("%s: %v\n%s", strings.Join(cmd, " "), err, out)
			}
		}
	}
}

// TestDockerfile: a multi-stage build whose runtime stage runs as a
// non-root user.
func TestDockerfile(t *testing.T) {
	data, err := os.ReadFile("../../docker/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var froms int
	user := ""
	for line := range strings.Lines(string(data)) {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		switch strings.ToUpper(fields[0]) {
		case "FROM":
			froms++
			user = "" // a stage starts as root
		case "USER":
			user = fields[1]
		}
	}
	if froms < 2 {
		t.Errorf("Dockerfile has %d stages, want a build stage and a runtime stage", froms)
	}
	if name, _, _ := strings.Cut(user, ":"); name == "" || name == "root" || name == "0" {
		t.Errorf("the runtime stage runs as %q, want a non-root user", user)
	}
}

// quickstartTestdata is this package's testdata of the quickstart.
const quickstartTestdata = "testdata/quickstart"

// imageTable is testdata/quickstart/images.json: what each image of the
// quickstart needs, as its publisher documents it.
type imageTable struct {
	Images []imageEntry `json:"images"`
}

type imageEntry struct {
	Service     string   `json:"service"`
	Registry    string   `json:"registry"`
	Repository  string   `json:"repository"`
	Tag         string   `json:"tag"`
	Documented  string   `json:"documented"`
	Build       string   `json:"build"`
	Environment []string `json:"environment"`
	Healthcheck []string `json:"healthcheck"`
	Entrypoint  []string `json:"entrypoint"`
	Equal       []struct {
		Variable string `json:"variable"`
		Service  string `json:"service"`
		As       string `json:"as"`
		Secret   string `json:"secret"`
	} `json:"equal"`
}

// pinnedTag is a published release: a MinIO RELEASE timestamp, a version
// with at least major and minor (and an Alpine variant), or a release
// number of three digits or more, as Trino numbers its releases. Floating
// tags (latest, 17, 17-alpine, bookworm) do not match.
var pinnedTag = regexp.MustCompile(`^(RELEASE\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ|\d+\.\d+(\.\d+)?(-alpine)?|\d{3,})$`)

// splitImage splits an image reference into registry, repository and tag;
// a reference without a registry host is on Docker Hub.
func splitImage(ref string) (registry, repository, tag string) {
	name := ref
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		name, tag = ref[:i], ref[i+1:]
	}
	registry = "docker.io"
	if first, rest, ok := strings.Cut(name, "/"); ok && strings.ContainsAny(first, ".:") {
		registry, name = first, rest
	}
	return registry, name, tag
}

// imageComments returns, per service, the comment above its image key.
func imageComments(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(quickstartDir, "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	services := mappingValue(doc.Content[0], "services")
	if services == nil {
		t.Fatal("compose.yaml: no services")
	}
	for i := 0; i+1 < len(services.Content); i += 2 {
		svc := services.Content[i+1]
		for j := 0; j+1 < len(svc.Content); j += 2 {
			if svc.Content[j].Value == "image" {
				out[services.Content[i].Value] = svc.Content[j].HeadComment
			}
		}
	}
	return out
}

// commentText is a YAML comment as one line of words, without the #s.
func commentText(comment string) string {
	var words []string
	for line := range strings.Lines(comment) {
		words = append(words, strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "#"))...)
	}
	return strings.Join(words, " ")
}

// mappingValue is the value of key in a YAML mapping node, or nil.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// healthcheckCommand is the program a healthcheck starts: the first word
// of the test, after CMD or CMD-SHELL.
func healthcheckCommand(test any) string {
	switch v := test.(type) {
	case string:
		return firstWord(v)
	case []any:
		if len(v) < 2 {
			return ""
		}
		first, _ := v[0].(string)
		second, _ := v[1].(string)
		if first == "CMD-SHELL" {
			return firstWord(second)
		}
		return second
	}
	return ""
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// TestQuickstartImages checks compose.yaml against the table of each
// image's documented requirements: every service in the table and back,
// the registry and repository it is published on, a pinned release tag
// named in the comment above the image with where it is documented, the
// environment the image needs (and the values that must agree with
// another service or a secret), the commands its healthcheck may use, and
// the README naming every image reference it was checked with.
func TestQuickstartImages(t *testing.T) {
	c := readCompose(t)
	data, err := os.ReadFile(filepath.Join(quickstartTestdata, "images.json"))
	if err != nil {
		t.Fatal(err)
	}
	var table imageTable
	if err := json.Unmarshal(data, &table); err != nil {
		t.Fatalf("images.json: %v", err)
	}
	readme, err := os.ReadFile(filepath.Join(quickstartDir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	comments := imageComments(t)
	listed := map[string]bool{}
	for _, e := range table.Images {
		listed[e.Service] = true
		s, ok := c.Services[e.Service]
		if !ok {
			t.Errorf("images.json lists %s, which compose.yaml does not run", e.Service)
			continue
		}
		if e.Build != "" {
			if s.Build["dockerfile"] != e.Build {
				t.Errorf("%s: built from %q, want %q", e.Service, s.Build["dockerfile"], e.Build)
			}
		} else {
			registry, repository, tag := splitImage(s.Image)
			if registry != e.Registry || repository != e.Repository || tag != e.Tag {
				t.Errorf("%s: image %s is %s/%s:%s, want %s/%s:%s", e.Service, s.Image, registry, repository, tag, e.Registry, e.Repository, e.Tag)
			}
			if !pinnedTag.MatchString(e.Tag) {
				t.Errorf("%s: tag %q is not a published release", e.Service, e.Tag)
			}
			if e.Documented == "" || !strings.Contains(commentText(comments[e.Service]), e.Documented) {
				t.Errorf("%s: the comment above its image does not say where the version is documented (%q): %q", e.Service, e.Documented, comments[e.Service])
			}
			if !strings.Contains(string(readme), s.Image) {
				t.Errorf("README.md does not name the tested image %s", s.Image)
			}
		}
		for _, k := range e.Environment {
			if s.Environment[k] == "" {
				t.Errorf("%s: the image needs %s, which is not set", e.Service, k)
			}
		}
		for _, eq := range e.Equal {
			got := s.Environment[eq.Variable]
			switch {
			case eq.Secret != "":
				want, err := readSecretFile(filepath.Join(quickstartDir, c.Secrets[eq.Secret].File))
				if err != nil {
					t.Errorf("%s: secret %s: %v", e.Service, eq.Secret, err)
				} else if got != want {
					t.Errorf("%s: %s differs from the secret %s", e.Service, eq.Variable, eq.Secret)
				}
			default:
				as := cmp.Or(eq.As, eq.Variable)
				if want := c.Services[eq.Service].Environment[as]; got == "" || got != want {
					t.Errorf("%s: %s = %q, want %s's %s = %q", e.Service, eq.Variable, got, eq.Service, as, want)
				}
			}
		}
		if len(e.Healthcheck) > 0 {
			if s.Healthcheck == nil {
				t.Errorf("%s: no healthcheck", e.Service)
			} else if cmd := healthcheckCommand(s.Healthcheck.Test); !slices.Contains(e.Healthcheck, cmd) {
				t.Errorf("%s: the healthcheck runs %q; the image is known to have %v", e.Service, cmd, e.Healthcheck)
			}
		}
		if len(e.Entrypoint) > 0 && (len(s.Entrypoint) == 0 || !slices.Contains(e.Entrypoint, s.Entrypoint[0])) {
			t.Errorf("%s: entrypoint %v, want one of %v", e.Service, s.Entrypoint, e.Entrypoint)
		}
	}
	for name := range c.Services {
		if !listed[name] {
			t.Errorf("compose.yaml runs %s, which images.json does not describe", name)
		}
	}
}

// TestQuickstartSplitImage: the registry of a reference without a host is
// Docker Hub; a tag is what follows the last colon after the last slash.
func TestQuickstartSplitImage(t *testing.T) {
	for _, tc := range []struct{ ref, registry, repository, tag string }{
		{"quay.io/minio/mc:RELEASE.2025-08-13T08-35-41Z", "quay.io", "minio/mc", "RELEASE.2025-08-13T08-35-41Z"},
		{"apache/ranger:2.8.0", "docker.io", "apache/ranger", "2.8.0"},
		{"postgres:18.6-alpine", "docker.io", "postgres", "18.6-alpine"},
		{"localhost:5000/sqe:dev", "localhost:5000", "sqe", "dev"},
		{"apache/polaris", "docker.io", "apache/polaris", ""},
		{"localhost:5000/sqe", "localhost:5000", "sqe", ""},
	} {
		registry, repository, tag := splitImage(tc.ref)
		if registry != tc.registry || repository != tc.repository || tag != tc.tag {
			t.Errorf("splitImage(%q) = %q %q %q, want %q %q %q", tc.ref, registry, repository, tag, tc.registry, tc.repository, tc.tag)
		}
	}
	for tag, pinned := range map[string]bool{"latest": false, "17": false, "17-alpine": false, "bookworm": false, "2.8.0": true, "480": true,
		"18.6-alpine": true, "26.5.2": true, "RELEASE.2025-09-07T16-13-09Z": true} {
		if pinnedTag.MatchString(tag) != pinned {
			t.Errorf("tag %q pinned = %v, want %v", tag, !pinned, pinned)
		}
	}
}

// exchangeFixture is one file of testdata/quickstart/requests: a setup
// script's conversation with a server, request by request, with the
// server's answers, and how the script ends.
type exchangeFixture struct {
	About     string     `json:"about"`
	Script    string     `json:"script"`
	API       string     `json:"api"`
	Exit      int        `json:"exit"`
	Stderr    string     `json:"stderr"`
	Exchanges []exchange `json:"exchanges"`
}

type exchange struct {
	Request  setupRequest `json:"request"`
	Response struct {
		Status   int             `json:"status"`
		Body     json.RawMessage `json:"body"`
		BodyFile string          `json:"bodyFile"`
	} `json:"response"`
}

// setupRequest is what the tests compare of a request: method, path,
// query, how it authenticates ("basic": Ranger's admin with the secret's
// password; "bearer": the token the server handed out; "none") and its
// JSON or form body.
type setupRequest struct {
	Method string            `json:"method"`
	Path   string            `json:"path"`
	Query  map[string]string `json:"query,omitempty"`
	Auth   string            `json:"auth"`
	JSON   json.RawMessage   `json:"json,omitempty"`
	Form   map[string]string `json:"form,omitempty"`
}

// readExchangeFixtures reads every fixture of testdata/quickstart/requests.
func readExchangeFixtures(t *testing.T) map[string]exchangeFixture {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(quickstartTestdata, "requests", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no request fixtures (%v)", err)
	}
	out := map[string]exchangeFixture{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var fx exchangeFixture
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&fx); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = fx
	}
	return out
}

// responseBody is the body the fake server answers with.
func (e exchange) responseBody(t *testing.T) []byte {
	t.Helper()
	data := []byte(e.Response.Body)
	if e.Response.BodyFile != "" {
		var err error
		if data, err = os.ReadFile(filepath.Join(quickstartTestdata, "requests", e.Response.BodyFile)); err != nil {
			t.Fatal(err)
		}
	}
	// Compact, as the servers answer.
	var compact bytes.Buffer
	if err := json.Compact(&compact, data); err != nil {
		t.Fatalf("%s: %v", e.Response.BodyFile, err)
	}
	return compact.Bytes()
}

// exchangeServer answers the i-th request with the fixture's i-th
// response and records every request as setupRequest.
type exchangeServer struct {
	t        *testing.T
	password string // Ranger admin's, from the secret file
	fixture  exchangeFixture

	mu       sync.Mutex
	got      []setupRequest
	problems []string
	token    string // the last access_token handed out
}

func (s *exchangeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req := setupRequest{Method: r.Method, Path: r.URL.Path, Auth: "none"}
	for k, v := range r.URL.Query() {
		if req.Query == nil {
			req.Query = map[string]string{}
		}
		req.Query[k] = strings.Join(v, ",")
	}
	if user, pass, ok := r.BasicAuth(); ok {
		req.Auth = "basic"
		if user != "admin" || pass != s.password {
			req.Auth = "basic with other credentials"
		}
	} else if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		req.Auth = "bearer"
		if s.token == "" || bearer != s.token {
			req.Auth = "bearer with another token"
		}
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.problems = append(s.problems, fmt.Sprintf("read body: %v", err))
	}
	if len(body) > 0 {
		switch ct := r.Header.Get("Content-Type"); {
		case strings.HasPrefix(ct, "application/json"):
			req.JSON = body
		case strings.HasPrefix(ct, "application/x-www-form-urlencoded"):
			form, err := url.ParseQuery(string(body))
			if err != nil {
				s.problems = append(s.problems, fmt.Sprintf("%s %s: form body: %v", r.Method, r.URL.Path, err))
			}
			req.Form = map[string]string{}
			for k, v := range form {
				req.Form[k] = strings.Join(v, ",")
			}
		default:
			s.problems = append(s.problems, fmt.Sprintf("%s %s: body of content type %q", r.Method, r.URL.Path, ct))
		}
	}
	i := len(s.got)
	s.got = append(s.got, req)
	if i >= len(s.fixture.Exchanges) {
		http.Error(w, "no more requests expected", http.StatusTeapot)
		return
	}
	e := s.fixture.Exchanges[i]
	answer := e.responseBody(s.t)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if json.Unmarshal(answer, &tok) == nil && tok.AccessToken != "" {
		s.token = tok.AccessToken
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.Response.Status)
	_, _ = w.Write(answer)
}

// sameRequest reports how got differs from want, or "".
func sameRequest(got, want setupRequest) string {
	var diffs []string
	if got.Method != want.Method || got.Path != want.Path {
		diffs = append(diffs, fmt.Sprintf("%s %s, want %s %s", got.Method, got.Path, want.Method, want.Path))
	}
	if !maps.Equal(got.Query, want.Query) {
		diffs = append(diffs, fmt.Sprintf("query %v, want %v", got.Query, want.Query))
	}
	if got.Auth != want.Auth {
		diffs = append(diffs, fmt.Sprintf("auth %q, want %q", got.Auth, want.Auth))
	}
	if !maps.Equal(got.Form, want.Form) {
		diffs = append(diffs, fmt.Sprintf("form %v, want %v", got.Form, want.Form))
	}
	if (got.JSON == nil) != (want.JSON == nil) || (got.JSON != nil && !sameJSON(got.JSON, want.JSON)) {
		diffs = append(diffs, fmt.Sprintf("JSON body\n  %s\nwant\n  %s", compactJSON(got.JSON), compactJSON(want.JSON)))
	}
	return strings.Join(diffs, "; ")
}

// sameJSON compares two JSON documents by value; an invalid one is never
// the same.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func compactJSON(data []byte) string {
	var b bytes.Buffer
	if json.Compact(&b, data) != nil {
		return string(data)
	}
	return b.String()
}

// scriptEnv is the environment a setup script runs in: the test's, without
// proxy settings (requests go to loopback) and with the overrides.
func scriptEnv(overrides ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasSuffix(strings.ToLower(name), "_proxy") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, overrides...)
}

// TestQuickstartSetupRequests runs each setup script with bash against a
// server that answers as the fixture records (a fresh server, one set up
// already, one that refuses) and checks that the script sends exactly
// the fixture's requests, in order, and ends as it says. The scripts run
// under /bin/sh in their containers; shellcheck holds them to POSIX sh.
func TestQuickstartSetupRequests(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "wget"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s not found in PATH (%v): the setup scripts need it (make test installs it)", tool, err)
		}
	}
	password, err := readSecretFile(filepath.Join(quickstartDir, "secrets", "ranger_admin_password"))
	if err != nil {
		t.Fatal(err)
	}
	for name, fx := range readExchangeFixtures(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := &exchangeServer{t: t, password: password, fixture: fx}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			dir := t.TempDir()
			psqlRecord := filepath.Join(dir, "psql.args")
			// A stand-in psql records how the script calls it; the
			// compat tests run the real one against SQE.
			fakePsql := "#!/bin/sh\nprintf '%s\\n' \"PGPASSWORD=$PGPASSWORD\" \"$@\" > \"$PSQL_RECORD\"\n"
			if err := os.WriteFile(filepath.Join(dir, "psql"), []byte(fakePsql), 0o755); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", filepath.Join(quickstartDir, fx.Script))
			cmd.Env = scriptEnv("RANGER_URL="+ts.URL, "POLARIS_URL="+ts.URL, "KEYCLOAK_URL="+ts.URL,
				"RANGER_PASSWORD_FILE="+filepath.Join(quickstartDir, "secrets", "ranger_admin_password"),
				"TRINO_POLARIS_CREDENTIAL_FILE="+filepath.Join(quickstartDir, "secrets", "trino_polaris_credential"),
				"PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"), "PSQL_RECORD="+psqlRecord)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			exit := 0
			if ee, ok := err.(*exec.ExitError); ok {
				exit = ee.ExitCode()
			} else if err != nil {
				t.Fatalf("run %s: %v", fx.Script, err)
			}
			if (exit == 0) != (fx.Exit == 0) || !strings.Contains(stderr.String(), fx.Stderr) {
				t.Errorf("%s exited %d with stderr %q; want exit %d, stderr containing %q\nstdout:\n%s", fx.Script, exit, stderr.String(), fx.Exit, fx.Stderr, stdout.String())
			}
			srv.mu.Lock()
			defer srv.mu.Unlock()
			for _, p := range srv.problems {
				t.Error(p)
			}
			for i := range max(len(srv.got), len(fx.Exchanges)) {
				switch {
				case i >= len(fx.Exchanges):
					t.Errorf("request %d: %s %s was not expected", i+1, srv.got[i].Method, srv.got[i].Path)
				case i >= len(srv.got):
					t.Errorf("request %d: %s %s was not sent", i+1, fx.Exchanges[i].Request.Method, fx.Exchanges[i].Request.Path)
				default:
					if d := sameRequest(srv.got[i], fx.Exchanges[i].Request); d != "" {
						t.Errorf("request %d: %s", i+1, d)
					}
				}
			}
			if fx.Script == "sqe/setup.sh" {
				checkDemoLoad(t, readCompose(t), psqlRecord)
			}
		})
	}
}

// checkDemoLoad checks how sqe/setup.sh ran psql: with the token Keycloak
// handed out as password, against the sqe service as carol over TLS,
// stopping at the first error, on the demo script compose mounts.
func checkDemoLoad(t *testing.T, compose composeFile, record string) {
	t.Helper()
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatalf("psql was not run: %v", err)
	}
	var mounted string
	for _, v := range compose.Services["sqe-setup"].Volumes {
		if source, target, _ := strings.Cut(v, ":"); source == "./sqe/demo.sql" {
			mounted, _, _ = strings.Cut(target, ":")
		}
	}
	want := []string{"PGPASSWORD=carol-token", "-X", "-w",
		"host=sqe port=5433 user=carol dbname=sales_wh sslmode=require", "-v", "ON_ERROR_STOP=1", "-f", mounted}
	if got := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"); mounted == "" || !slices.Equal(got, want) {
		t.Errorf("psql ran with %q, want %q", got, want)
	}
}

// apiTable is testdata/quickstart/apis.json: the published request shapes
// of the servers the setup scripts talk to.
type apiTable struct {
	APIs map[string]struct {
		Auth        string                `json:"auth"`
		Endpoints   []apiEndpoint         `json:"endpoints"`
		Definitions map[string]jsonSchema `json:"definitions"`
	} `json:"apis"`
}

type apiEndpoint struct {
	Method string      `json:"method"`
	Path   string      `json:"path"`
	Query  []string    `json:"query"`
	Auth   string      `json:"auth"`
	JSON   *jsonSchema `json:"json"`
	Form   *struct {
		Required []string `json:"required"`
		Fields   map[string]struct {
			Enum []string `json:"enum"`
		} `json:"fields"`
	} `json:"form"`
}

// jsonSchema is the part of JSON Schema apis.json uses.
type jsonSchema struct {
	Ref                  string                `json:"$ref"`
	Type                 string                `json:"type"`
	Enum                 []string              `json:"enum"`
	Required             []string              `json:"required"`
	Properties           map[string]jsonSchema `json:"properties"`
	AdditionalProperties json.RawMessage       `json:"additionalProperties"`
	Items                *jsonSchema           `json:"items"`
}

// matches reports whether path fits the endpoint's path, whose {name}
// segments stand for one segment each.
func (e apiEndpoint) matches(method, path string) bool {
	want, got := strings.Split(e.Path, "/"), strings.Split(path, "/")
	if e.Method != method || len(want) != len(got) {
		return false
	}
	for i := range want {
		if want[i] != got[i] && !(strings.HasPrefix(want[i], "{") && got[i] != "") {
			return false
		}
	}
	return true
}

// validate lists how value breaks schema, at path.
func validate(s jsonSchema, defs map[string]jsonSchema, value any, at string) []string {
	if s.Ref != "" {
		def, ok := defs[s.Ref]
		if !ok {
			return []string{at + ": undefined $ref " + s.Ref}
		}
		return validate(def, defs, value, at)
	}
	var errs []string
	switch s.Type {
	case "object":
		obj, ok := value.(map[string]any)
		if !ok {
			return []string{at + ": not an object"}
		}
		for _, r := range s.Required {
			if _, ok := obj[r]; !ok {
				errs = append(errs, at+": lacks "+r)
			}
		}
		for k, v := range obj {
			if ps, ok := s.Properties[k]; ok {
				errs = append(errs, validate(ps, defs, v, at+"."+k)...)
				continue
			}
			switch ap := strings.TrimSpace(string(s.AdditionalProperties)); ap {
			case "", "true":
			case "false":
				errs = append(errs, at+": unknown field "+k)
			default:
				var extra jsonSchema
				if err := json.Unmarshal(s.AdditionalProperties, &extra); err != nil {
					return append(errs, at+": "+err.Error())
				}
				errs = append(errs, validate(extra, defs, v, at+"."+k)...)
			}
		}
	case "array":
		list, ok := value.([]any)
		if !ok {
			return []string{at + ": not an array"}
		}
		if s.Items != nil {
			for i, v := range list {
				errs = append(errs, validate(*s.Items, defs, v, fmt.Sprintf("%s[%d]", at, i))...)
			}
		}
	case "string":
		str, ok := value.(string)
		if !ok {
			return []string{at + ": not a string"}
		}
		if len(s.Enum) > 0 && !slices.Contains(s.Enum, str) {
			errs = append(errs, fmt.Sprintf("%s: %q not one of %v", at, str, s.Enum))
		}
	case "boolean":
		if _, ok := value.(bool); !ok {
			errs = append(errs, at+": not a boolean")
		}
	case "integer":
		if n, ok := value.(float64); !ok || n != float64(int64(n)) {
			errs = append(errs, at+": not an integer")
		}
	case "":
	default:
		errs = append(errs, at+": schema type "+s.Type+" not understood")
	}
	return errs
}

// TestQuickstartRequestFixtures checks every request of the fixtures
// against the servers' published APIs: it names exactly one endpoint, with
// only that endpoint's query parameters, its authentication, and a body of
// its shape (or none).
func TestQuickstartRequestFixtures(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(quickstartTestdata, "apis.json"))
	if err != nil {
		t.Fatal(err)
	}
	var apis apiTable
	if err := json.Unmarshal(data, &apis); err != nil {
		t.Fatalf("apis.json: %v", err)
	}
	for name, fx := range readExchangeFixtures(t) {
		api, ok := apis.APIs[fx.API]
		if !ok {
			t.Errorf("%s: unknown API %q", name, fx.API)
			continue
		}
		if _, err := os.Stat(filepath.Join(quickstartDir, fx.Script)); err != nil {
			t.Errorf("%s: script: %v", name, err)
		}
		for i, e := range fx.Exchanges {
			r := e.Request
			where := fmt.Sprintf("%s request %d (%s %s)", name, i+1, r.Method, r.Path)
			var found []apiEndpoint
			for _, ep := range api.Endpoints {
				if ep.matches(r.Method, r.Path) {
					found = append(found, ep)
				}
			}
			if len(found) != 1 {
				t.Errorf("%s: matches %d endpoints of %s, want 1", where, len(found), fx.API)
				continue
			}
			ep := found[0]
			for k := range r.Query {
				if !slices.Contains(ep.Query, k) {
					t.Errorf("%s: query parameter %s is not the endpoint's (%v)", where, k, ep.Query)
				}
			}
			if want := cmp.Or(ep.Auth, api.Auth); r.Auth != want {
				t.Errorf("%s: authenticates %q, the API %q", where, r.Auth, want)
			}
			switch {
			case ep.JSON != nil:
				var body any
				if err := json.Unmarshal(r.JSON, &body); err != nil {
					t.Errorf("%s: JSON body: %v", where, err)
					continue
				}
				for _, problem := range validate(*ep.JSON, api.Definitions, body, "body") {
					t.Errorf("%s: %s", where, problem)
				}
			case ep.Form != nil:
				for _, k := range ep.Form.Required {
					if r.Form[k] == "" {
						t.Errorf("%s: form lacks %s", where, k)
					}
				}
				for k, v := range r.Form {
					f, ok := ep.Form.Fields[k]
					switch {
					case !ok:
						t.Errorf("%s: form field %s is not the endpoint's", where, k)
					case len(f.Enum) > 0 && !slices.Contains(f.Enum, v):
						t.Errorf("%s: form field %s = %q, not one of %v", where, k, v, f.Enum)
					}
				}
			case r.JSON != nil || r.Form != nil:
				t.Errorf("%s: a body, for an endpoint that takes none", where)
			}
		}
	}
}

// TestQuickstartSchemaValidation: the schema check itself finds what it
// is there for.
func TestQuickstartSchemaValidation(t *testing.T) {
	defs := map[string]jsonSchema{"Member": {Type: "object", Required: []string{"name"},
		Properties: map[string]jsonSchema{"name": {Type: "string"}}, AdditionalProperties: json.RawMessage("false")}}
	schema := jsonSchema{Type: "object", Properties: map[string]jsonSchema{
		"kind":    {Type: "string", Enum: []string{"S3"}},
		"members": {Type: "array", Items: &jsonSchema{Ref: "Member"}},
		"on":      {Type: "boolean"},
		"n":       {Type: "integer"},
		"configs": {Type: "object", AdditionalProperties: json.RawMessage(`{"type":"string"}`)},
	}, AdditionalProperties: json.RawMessage("false")}
	for _, tc := range []struct {
		doc  string
		errs int
	}{
		{`{"kind":"S3","members":[{"name":"a"}],"on":true,"n":2,"configs":{"a":"b"}}`, 0},
		{`{"kind":"GCS"}`, 1},
		{`{"members":[{"nam":"a"}]}`, 2},
		{`{"on":"yes","n":1.5}`, 2},
		{`{"configs":{"a":1}}`, 1},
		{`{"isEnable":true}`, 1},
	} {
		var v any
		if err := json.Unmarshal([]byte(tc.doc), &v); err != nil {
			t.Fatal(err)
		}
		if got := validate(schema, defs, v, "body"); len(got) != tc.errs {
			t.Errorf("%s: %d problems %v, want %d", tc.doc, len(got), got, tc.errs)
		}
	}
}

// serviceDefFacts is what these tests read of a Ranger service definition.
type serviceDefFacts struct {
	Name      string `json:"name"`
	Resources []struct {
		Name                   string   `json:"name"`
		Parent                 string   `json:"parent"`
		AccessTypeRestrictions []string `json:"accessTypeRestrictions"`
	} `json:"resources"`
	AccessTypes []struct {
		Name          string   `json:"name"`
		ImpliedGrants []string `json:"impliedGrants"`
	} `json:"accessTypes"`
}

// index returns each access type's implied grants, the resource it is
// restricted to, and each resource's parent.
func (d serviceDefFacts) index() (implies map[string][]string, levelOf, parent map[string]string) {
	implies, levelOf, parent = map[string][]string{}, map[string]string{}, map[string]string{}
	for _, a := range d.AccessTypes {
		implies[a.Name] = a.ImpliedGrants
	}
	for _, r := range d.Resources {
		parent[r.Name] = r.Parent
		for _, a := range r.AccessTypeRestrictions {
			levelOf[a] = r.Name
		}
	}
	return implies, levelOf, parent
}

// closure is set with everything it implies, transitively.
func closure(implies map[string][]string, set []string) map[string]bool {
	out := map[string]bool{}
	queue := slices.Clone(set)
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		if !out[at] {
			out[at] = true
			queue = append(queue, implies[at]...)
		}
	}
	return out
}

// TestQuickstartRangerServiceDef checks SQE's polaris service definition,
// the grant profile and ranger/setup.sh's policies against the definition
// Ranger Admin 2.8.0 creates at start (testdata, recorded from apache/ranger):
//   - every access type SQE's definition declares, Ranger's declares at the
//     same resource, implying the same, except that Ranger's may imply
//     access types SQE's does not declare (service-access-manage implies
//     the principal-role ones): SQE never writes those, Ranger's engine
//     adds them when it evaluates;
//   - every access-type set the grant profile writes is declared by Ranger
//     and closed under Ranger's implied grants as far as SQE's definition
//     goes, so a policy SQE writes means in Ranger what SQE planned;
//   - the setup's policies name resources along one of Ranger's resource
//     paths, and access types both definitions declare, each restricted to
//     the policy's resource or to a resource directly under it (Polaris
//     checks creating and listing children on the parent, as the grant
//     profile's namespace-list on a catalog).
func TestQuickstartRangerServiceDef(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(quickstartTestdata, "ranger-2.8.0-polaris-servicedef.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ranger, sqe serviceDefFacts
	if err := json.Unmarshal(data, &ranger); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(grants.PolarisServiceDef(), &sqe); err != nil {
		t.Fatal(err)
	}
	rImplies, rLevel, rParent := ranger.index()
	sImplies, sLevel, sParent := sqe.index()
	if ranger.Name != "polaris" || sqe.Name != ranger.Name || len(rImplies) != 102 {
		t.Fatalf("definitions %q (%d access types) and %q, want polaris twice, Ranger's with 102", ranger.Name, len(rImplies), sqe.Name)
	}
	for r, p := range sParent {
		if rp, ok := rParent[r]; !ok || rp != p {
			t.Errorf("SQE's resource %s (parent %q): Ranger's has parent %q (declared %v)", r, p, rp, ok)
		}
	}
	for at, implied := range sImplies {
		rImplied, ok := rImplies[at]
		switch {
		case !ok:
			t.Errorf("Ranger does not declare SQE's access type %s", at)
			continue
		case rLevel[at] != sLevel[at]:
			t.Errorf("%s: restricted to %s by Ranger, to %s by SQE", at, rLevel[at], sLevel[at])
		}
		for _, i := range implied {
			if !slices.Contains(rImplied, i) {
				t.Errorf("%s implies %s for SQE, not for Ranger", at, i)
			}
		}
		for _, i := range rImplied {
			if _, declared := sImplies[i]; declared && !slices.Contains(implied, i) {
				t.Errorf("%s implies %s for Ranger, not for SQE, which declares it", at, i)
			}
		}
	}

	profile, err := grants.Load()
	if err != nil {
		t.Fatal(err)
	}
	sets := 0
	for _, priv := range profile.Privileges() {
		for _, kind := range []grants.ObjectKind{grants.ObjectCatalog, grants.ObjectSchema, grants.ObjectTable, grants.ObjectView} {
			byLevel, ok := profile.AccessTypes(priv, kind)
			if !ok {
				continue
			}
			for level, set := range byLevel {
				sets++
				var wantClosed []string
				for at := range closure(rImplies, set) {
					if _, declared := sImplies[at]; declared {
						wantClosed = append(wantClosed, at)
					}
					if _, declared := rImplies[at]; !declared {
						t.Errorf("%s on %s at %s: Ranger does not declare %s", priv, kind, level, at)
					}
				}
				slices.Sort(wantClosed)
				if got := slices.Sorted(slices.Values(set)); !slices.Equal(got, wantClosed) {
					t.Errorf("%s on %s at %s writes %v; under Ranger's implied grants that is %v", priv, kind, level, got, wantClosed)
				}
			}
		}
	}
	if sets == 0 {
		t.Fatal("the grant profile gave no access-type sets")
	}

	policies := 0
	for name, fx := range readExchangeFixtures(t) {
		if fx.Script != "ranger/setup.sh" {
			continue
		}
		for _, e := range fx.Exchanges {
			if !strings.HasPrefix(e.Request.Path, "/service/public/v2/api/policy") {
				continue
			}
			var p struct {
				Service   string `json:"service"`
				Name      string `json:"name"`
				Resources map[string]struct {
					Values []string `json:"values"`
				} `json:"resources"`
				PolicyItems []struct {
					Accesses []struct {
						Type string `json:"type"`
					} `json:"accesses"`
				} `json:"policyItems"`
			}
			if err := json.Unmarshal(e.Request.JSON, &p); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			policies++
			where := name + ": policy " + p.Name
			if p.Service != "polaris" {
				t.Errorf("%s: service %q", where, p.Service)
			}
			leaf := ""
			for r := range p.Resources {
				parent, ok := rParent[r]
				switch {
				case !ok:
					t.Errorf("%s: resource %s is not Ranger's", where, r)
				case parent != "":
					if _, ok := p.Resources[parent]; !ok {
						t.Errorf("%s: resource %s without its parent %s", where, r, parent)
					}
				}
				isParent := false
				for other := range p.Resources {
					isParent = isParent || rParent[other] == r
				}
				if !isParent {
					if leaf != "" {
						t.Errorf("%s: resources end in both %s and %s", where, leaf, r)
					}
					leaf = r
				}
			}
			for _, item := range p.PolicyItems {
				for _, a := range item.Accesses {
					_, inRanger := rImplies[a.Type]
					_, inSQE := sImplies[a.Type]
					if level := rLevel[a.Type]; !inRanger || !inSQE || (level != leaf && rParent[level] != leaf) {
						t.Errorf("%s: access type %s (Ranger %v, SQE %v, restricted to %s) on a policy ending at %s", where, a.Type, inRanger, inSQE, level, leaf)
					}
				}
			}
		}
	}
	if policies == 0 {
		t.Fatal("no policies in the ranger-setup fixtures")
	}
}

// TestQuickstartRangerEntrypoint runs ranger/admin-entrypoint.sh over a
// stand-in of the image's layout: on first start it sets Ranger Admin up
// as the image's script does, with the credentials from the environment and
// hadoop_conf naming the directory of core-site.xml as the last (deciding)
// value, marks the setup done, and hands over to the image's script; when
// the setup fails it hands over without marking, so that the image's own
// setup runs; on a later start it only hands over.
func TestQuickstartRangerEntrypoint(t *testing.T) {
	core, err := os.ReadFile(filepath.Join(quickstartDir, "ranger", "hadoop-conf", "core-site.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var conf struct {
		Properties []struct {
			Name  string `xml:"name"`
			Value string `xml:"value"`
		} `xml:"property"`
	}
	if err := xml.Unmarshal(core, &conf); err != nil {
		t.Fatalf("core-site.xml: %v", err)
	}
	if len(conf.Properties) != 1 || conf.Properties[0].Name != "ranger.servicedef.autopropagate.rowfilterdef.to.tag" || conf.Properties[0].Value != "true" {
		t.Errorf("core-site.xml sets %+v, want ranger.servicedef.autopropagate.rowfilterdef.to.tag=true", conf.Properties)
	}
	compose := readCompose(t)
	ranger := compose.Services["ranger"]
	if !slices.Equal(ranger.Entrypoint, []string{"/bin/bash", "/quickstart/admin-entrypoint.sh"}) ||
		!slices.Contains(ranger.Volumes, "./ranger/admin-entrypoint.sh:/quickstart/admin-entrypoint.sh:ro") ||
		!slices.Contains(ranger.Volumes, "./ranger/hadoop-conf/core-site.xml:/quickstart/hadoop-conf/core-site.xml:ro") {
		t.Errorf("the ranger service does not run ranger/admin-entrypoint.sh with hadoop-conf mounted where it looks: %v %v", ranger.Entrypoint, ranger.Volumes)
	}
	script, err := filepath.Abs(filepath.Join(quickstartDir, "ranger", "admin-entrypoint.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		setupFails bool
		setupDone  bool
	}{
		{name: "first start"},
		{name: "setup fails", setupFails: true},
		{name: "later start", setupDone: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			home, scripts, hadoopConf := filepath.Join(dir, "ranger"), filepath.Join(dir, "scripts"), filepath.Join(dir, "hadoop-conf")
			for _, d := range []string{filepath.Join(home, "admin"), scripts, hadoopConf} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			write := func(path, content string, mode os.FileMode) {
				t.Helper()
				if err := os.WriteFile(path, []byte(content), mode); err != nil {
					t.Fatal(err)
				}
			}
			write(filepath.Join(hadoopConf, "core-site.xml"), string(core), 0o644)
			write(filepath.Join(scripts, "ranger-admin-install.properties"), "DB_FLAVOR=POSTGRES\nhadoop_conf=\ndb_host=ranger-db\n", 0o644)
			// Ranger Admin's setup.sh reads install.properties from the
			// working directory; the stand-in keeps a copy.
			exit := "0"
			if tc.setupFails {
				exit = "1"
			}
			write(filepath.Join(home, "admin", "setup.sh"), "#!/bin/sh\ncp install.properties \""+dir+"/seen.properties\"\nexit "+exit+"\n", 0o755)
			write(filepath.Join(dir, "image-entrypoint.sh"), "#!/bin/sh\necho image >> \""+dir+"/image.ran\"\n", 0o755)
			if tc.setupDone {
				write(filepath.Join(home, ".setupDone"), "", 0o644)
			}
			cmd := exec.Command("bash", script)
			cmd.Env = scriptEnv("RANGER_HOME="+home, "RANGER_SCRIPTS="+scripts, "QUICKSTART_HADOOP_CONF="+hadoopConf,
				"QUICKSTART_IMAGE_ENTRYPOINT="+filepath.Join(dir, "image-entrypoint.sh"),
				"POSTGRES_PASSWORD=pgpw", "RANGER_DB_USER=rangeradmin", "RANGER_DB_PASSWORD=rangerR0cks!")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("admin-entrypoint.sh: %v\n%s", err, out)
			}
			if ran, _ := os.ReadFile(filepath.Join(dir, "image.ran")); string(ran) != "image\n" {
				t.Errorf("the image's script ran %q times, want once\n%s", ran, out)
			}
			_, doneErr := os.Stat(filepath.Join(home, ".setupDone"))
			if done := doneErr == nil; done != !tc.setupFails {
				t.Errorf("setup marked done: %v, want %v\n%s", done, !tc.setupFails, out)
			}
			seen, err := os.ReadFile(filepath.Join(dir, "seen.properties"))
			if tc.setupDone {
				if err == nil {
					t.Errorf("the setup ran again on a later start")
				}
				return
			}
			if err != nil {
				t.Fatalf("the setup did not run: %v\n%s", err, out)
			}
			props := map[string]string{}
			for line := range strings.Lines(string(seen)) {
				// As Ranger's setup.sh (get_prop): the last line of a name counts.
				if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
					props[k] = v
				}
			}
			for k, want := range map[string]string{"hadoop_conf": hadoopConf, "db_root_password": "pgpw", "db_user": "rangeradmin",
				"db_password": "rangerR0cks!", "rangerAdmin_password": "rangerR0cks!", "db_host": "ranger-db"} {
				if props[k] != want {
					t.Errorf("install.properties: %s = %q, want %q", k, props[k], want)
				}
			}
			if _, err := os.Stat(filepath.Join(home, "admin", "install.properties")); (err == nil) != tc.setupFails {
				t.Errorf("install.properties with the passwords left behind: %v, want %v", err == nil, tc.setupFails)
			}
		})
	}
}

// readProperties reads a Java properties file as Trino's configuration
// files are written: key=value lines, # comments.
func readProperties(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	props := map[string]string{}
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "!") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("%s: %q is not key=value", path, line)
		}
		props[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return props
}

// mountedFile is the file of the quickstart directory that a service
// mounts at target, or "".
func mountedFile(s composeService, target string) string {
	for _, v := range s.Volumes {
		source, rest, _ := strings.Cut(v, ":")
		if mountTarget, _, _ := strings.Cut(rest, ":"); mountTarget == target && strings.HasPrefix(source, ".") {
			return filepath.Join(quickstartDir, source)
		}
	}
	return ""
}

// envReference matches Trino's secret references, ${ENV:NAME}.
var envReference = regexp.MustCompile(`\$\{ENV:([A-Za-z_][A-Za-z0-9_]*)\}`)

// trinoSecretKeys are the catalog properties that hold secrets; the file
// may give them only as ${ENV:...}.
var trinoSecretKeys = regexp.MustCompile(`(credential|secret|password|access-key|secret-key|token)`)

// TestQuickstartTrino checks the Trino services against SQE's engine and
// the other services: no Trino port reaches the host (Trino reads every
// table as its own service identity), sqe.toml's engine loads and names
// the coordinator, which runs beside one worker, each catalog it maps is
// a properties file both services mount that reads the Polaris catalog,
// warehouse and storage SQE reads, its secrets are ${ENV:...} references
// the services set (the Polaris credential through trino/entrypoint.sh,
// run here against a stand-in of the image's start script), and the
// credential is the secret polaris-setup sets for the principal trino.
func TestQuickstartTrino(t *testing.T) {
	c := readCompose(t)
	services := []string{"trino", "trino-worker"}
	for _, name := range services {
		s, ok := c.Services[name]
		if !ok {
			t.Fatalf("compose.yaml lacks the service %s", name)
		}
		if len(s.Ports) > 0 {
			t.Errorf("%s publishes %v: clients must never reach Trino, which reads every table", name, s.Ports)
		}
		if !slices.Contains(s.Secrets, "trino_polaris_credential") {
			t.Errorf("%s is not given the secret trino_polaris_credential", name)
		}
		if !slices.Equal(s.Entrypoint, []string{"/bin/bash", "/quickstart/entrypoint.sh"}) ||
			mountedFile(s, "/quickstart/entrypoint.sh") != filepath.Join(quickstartDir, "trino", "entrypoint.sh") {
			t.Errorf("%s does not run trino/entrypoint.sh: %v %v", name, s.Entrypoint, s.Volumes)
		}
	}
	if _, ok := c.Services["trino-worker"].DependsOn["trino"]; !ok {
		t.Error("trino-worker does not wait for the coordinator")
	}
	if !slices.Contains(c.Services["polaris-setup"].Secrets, "trino_polaris_credential") {
		t.Error("polaris-setup is not given the secret trino_polaris_credential, the credentials it sets for trino")
	}

	cfg := loadQuickstartConfig(t, c)
	if cfg.Query.Execution != "local" {
		t.Errorf("[query] execution = %q: the quickstart runs locally unless a session opts in", cfg.Query.Execution)
	}
	if len(cfg.Engines) != 1 {
		t.Fatalf("engines %+v, want trino", cfg.Engines)
	}
	e := cfg.Engines[0]
	if e.Name != "trino" || e.Type != "trino" || e.User != "sqe" || e.Password != "" || e.PasswordFile != "" {
		t.Errorf("engine %s: type %q, user %q, password set %v: want trino, trino, sqe, none (basic authentication needs https)",
			e.Name, e.Type, e.User, e.Password != "" || e.PasswordFile != "")
	}
	u, err := url.Parse(e.URI)
	if err != nil || u.Scheme != "http" || u.Hostname() != "trino" {
		t.Fatalf("engine uri %q: want http:// on the coordinator service trino", e.URI)
	}

	coordinator := readProperties(t, mountedFile(c.Services["trino"], "/etc/trino/config.properties"))
	worker := readProperties(t, mountedFile(c.Services["trino-worker"], "/etc/trino/config.properties"))
	if coordinator["coordinator"] != "true" || worker["coordinator"] != "false" {
		t.Errorf("coordinator=%q on trino and %q on trino-worker, want true and false", coordinator["coordinator"], worker["coordinator"])
	}
	if port := coordinator["http-server.http.port"]; u.Port() != port || worker["discovery.uri"] != "http://trino:"+port {
		t.Errorf("engine uri %s, worker's discovery.uri %s: want the coordinator's port %s", e.URI, worker["discovery.uri"], port)
	}
	for _, name := range services {
		if mountedFile(c.Services[name], "/etc/trino/node.properties") == "" {
			t.Errorf("%s mounts no node.properties", name)
		}
	}

	// The catalog SQE's engine maps to reads what SQE's catalog reads.
	credentialFile := filepath.Join(quickstartDir, c.Secrets["trino_polaris_credential"].File)
	credential, err := readSecretFile(credentialFile)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[0-9a-f]{16}:[0-9a-f]{32}$`).MatchString(credential) {
		t.Errorf("%s does not hold a Polaris client id (16 hex digits) and secret (32) as id:secret", credentialFile)
	}
	exported := runTrinoEntrypoint(t, credentialFile)
	if exported["POLARIS_CREDENTIAL"] != credential {
		t.Errorf("trino/entrypoint.sh exports POLARIS_CREDENTIAL set %v, want the secret file's credential", exported["POLARIS_CREDENTIAL"] != "")
	}
	if len(e.Catalogs) == 0 {
		t.Fatal("the engine maps no catalog")
	}
	for sqeName, trinoName := range e.Catalogs {
		i := slices.IndexFunc(cfg.Catalogs, func(cat CatalogConfig) bool { return cat.Name == sqeName })
		if i < 0 {
			t.Errorf("the engine maps %s, which is not one of SQE's catalogs", sqeName)
			continue
		}
		cat := cfg.Catalogs[i]
		file := filepath.Join(quickstartDir, "trino", "catalog", trinoName+".properties")
		for _, name := range services {
			if got := mountedFile(c.Services[name], "/etc/trino/catalog/"+trinoName+".properties"); got != file {
				t.Errorf("%s mounts %q as Trino's catalog %s, want %s", name, got, trinoName, file)
			}
		}
		props := readProperties(t, file)
		for k, want := range map[string]string{
			"connector.name": "iceberg", "iceberg.catalog.type": "rest", "iceberg.rest-catalog.security": "OAUTH2",
			"iceberg.rest-catalog.uri": cat.URI, "iceberg.rest-catalog.warehouse": cat.Warehouse,
			"s3.endpoint": cat.Properties["s3.endpoint"], "s3.region": cat.Properties["s3.region"],
			"iceberg.rest-catalog.oauth2.credential": "${ENV:POLARIS_CREDENTIAL}",
		} {
			if props[k] != want || want == "" {
				t.Errorf("%s: %s = %q, want %q (as SQE's catalog %s)", file, k, props[k], want, sqeName)
			}
		}
		for _, k := range []string{"iceberg.rest-catalog.uri", "s3.endpoint"} {
			pu, err := url.Parse(props[k])
			if err != nil || !dependsIndirectly(c, "trino", pu.Hostname()) {
				t.Errorf("%s: %s %q is not a service trino waits for", file, k, props[k])
			}
		}
		for k, v := range props {
			if trinoSecretKeys.MatchString(k) && !envReference.MatchString(v) {
				t.Errorf("%s: %s holds a value; a secret goes in as ${ENV:NAME}", file, k)
			}
			for _, m := range envReference.FindAllStringSubmatch(v, -1) {
				for _, name := range services {
					if c.Services[name].Environment[m[1]] == "" && exported[m[1]] == "" {
						t.Errorf("%s: %s reads ${ENV:%s}, which %s does not set", file, k, m[1], name)
					}
				}
			}
		}
	}
}

// runTrinoEntrypoint runs trino/entrypoint.sh with the credential file
// and a stand-in of the image's start script, and returns the variables
// the script added to the environment the start script saw. A file that
// is not id:secret stops it before the start script.
func runTrinoEntrypoint(t *testing.T, credentialFile string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	seen := filepath.Join(dir, "env")
	standIn := filepath.Join(dir, "run-trino")
	if err := os.WriteFile(standIn, []byte("#!/bin/sh\nenv > \""+seen+"\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(quickstartDir, "trino", "entrypoint.sh")
	run := func(file string) ([]byte, error) {
		cmd := exec.Command("bash", script)
		cmd.Env = scriptEnv("TRINO_POLARIS_CREDENTIAL_FILE="+file, "QUICKSTART_IMAGE_ENTRYPOINT="+standIn)
		return cmd.CombinedOutput()
	}
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(bad, []byte("no-separator\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := run(bad); err == nil {
		t.Errorf("entrypoint.sh accepted a credential without id:secret\n%s", out)
	} else if _, statErr := os.Stat(seen); statErr == nil {
		t.Error("entrypoint.sh ran Trino with a malformed credential")
	}
	if out, err := run(credentialFile); err != nil {
		t.Fatalf("entrypoint.sh: %v\n%s", err, out)
	}
	data, err := os.ReadFile(seen)
	if err != nil {
		t.Fatalf("entrypoint.sh did not run the image's start script: %v", err)
	}
	// What the test sets, and what a shell sets of its own, is not the
	// script's.
	before := map[string]bool{"TRINO_POLARIS_CREDENTIAL_FILE": true, "QUICKSTART_IMAGE_ENTRYPOINT": true, "PWD": true, "SHLVL": true, "_": true}
	for _, kv := range scriptEnv() {
		name, _, _ := strings.Cut(kv, "=")
		before[name] = true
	}
	added := map[string]string{}
	for line := range strings.Lines(string(data)) {
		name, value, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "=")
		if ok && !before[name] {
			added[name] = value
		}
	}
	return added
}

// TestQuickstartRemoteWalkthrough: the walk-through runs spec/002's example
// as bob locally and remotely and compares the answers, shows carol's
// EXPLAIN on the engine, and checks that no Trino port is published.
func TestQuickstartRemoteWalkthrough(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(quickstartDir, "remote-walkthrough.sh"))
	if err != nil {
		t.Fatal(err)
	}
	script := string(data)
	for _, want := range []string{"set -euo pipefail", "SELECT id, region, ssn FROM acdemo.orders ORDER BY id",
		`sqe bob -A -t -c "SET sqe.execution = 'local'"`, `sqe bob -A -t -c "SET sqe.execution = 'remote'"`,
		`"$local_rows" != "$remote_rows"`, `sqe carol -c "SET sqe.execution = 'remote'" -c "EXPLAIN $QUERY"`,
		"Remote on trino", "ps --format '{{.Service}}: {{.Ports}}' trino trino-worker",
		"/realms/sqe/protocol/openid-connect/token"} {
		if !strings.Contains(script, want) {
			t.Errorf("remote-walkthrough.sh lacks %q", want)
		}
	}
	if out, err := exec.Command("bash", "-n", filepath.Join(quickstartDir, "remote-walkthrough.sh")).CombinedOutput(); err != nil {
		t.Errorf("bash -n remote-walkthrough.sh: %v\n%s", err, out)
	}
}

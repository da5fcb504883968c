package main

import (
	"encoding/json"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
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
		"minio-setup", "ranger-setup", "polaris-setup", "sqe-setup"} {
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

// TestQuickstartScripts: every setup script is valid shell and passes
// shellcheck (make test installs it; a missing one is a failure).
func TestQuickstartScripts(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join(quickstartDir, "*", "*.sh"))
	if err != nil || len(scripts) < 3 {
		t.Fatalf("setup scripts %v (%v), want ranger, polaris and sqe's", scripts, err)
	}
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

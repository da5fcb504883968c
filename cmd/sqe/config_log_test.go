package main

import (
	"bytes"
	"log/slog"
	"reflect"
	"strings"
	"testing"
)

// TestEffectiveConfigLogLine: the startup line shows every key with its
// value and never a secret, in both log formats.
func TestEffectiveConfigLogLine(t *testing.T) {
	cfg := defaultConfig()
	cfg.PGWire.Listen = "0.0.0.0:6543"
	cfg.Auth.Issuer = "http://keycloak:8080/realms/sqe"
	cfg.Policy.Engine = "ranger"
	cfg.Policy.Ranger.URL = "http://ranger:6080"
	cfg.Policy.Ranger.AdminPasswordFile = "/run/secrets/ranger_password"
	cfg.AccessControl.Polaris.Catalogs = map[string]string{"lake": "lake"}
	cfg.Catalogs = []CatalogConfig{{
		Name: "lake", Type: "rest", URI: "http://polaris:8181/api/catalog", Warehouse: "lake",
		Properties:    map[string]string{"s3.endpoint": "http://minio:9000", "s3.secret-access-key": "prop-s3cr3t", "header.Authorization": "Bearer prop-t0ken"},
		PropertyFiles: map[string]string{"s3.session-token": "/run/secrets/session"},
	}}
	cfg.Engines = []RemoteEngineConfig{{Name: "trino", Type: "trino", URI: "https://trino:8443", User: "sqe", Catalogs: map[string]string{"lake": "iceberg"}}}
	// Every secret key holds a value of its own that must not be printed.
	var secrets []string
	setSecrets(reflect.ValueOf(&cfg).Elem(), &secrets)
	setSecrets(reflect.ValueOf(&cfg.Catalogs[0]).Elem(), &secrets)
	setSecrets(reflect.ValueOf(&cfg.Engines[0]).Elem(), &secrets)
	secrets = append(secrets, "prop-s3cr3t", "prop-t0ken")
	if len(secrets) != 9 {
		t.Fatalf("set %d secrets, want the 7 secret keys and 2 properties", len(secrets))
	}

	var text, js bytes.Buffer
	slog.New(slog.NewTextHandler(&text, nil)).Info("configuration", "config", effectiveConfig(cfg))
	slog.New(slog.NewJSONHandler(&js, nil)).Info("configuration", "config", effectiveConfig(cfg))
	for _, s := range secrets {
		if strings.Contains(text.String(), s) || strings.Contains(js.String(), s) {
			t.Errorf("the configuration line prints the secret %q:\n%s\n%s", s, text.String(), js.String())
		}
	}
	for _, want := range []string{
		"config.pgwire.listen=0.0.0.0:6543", "config.auth.issuer=http://keycloak:8080/realms/sqe", "config.auth.admin_roles=[sqe_admin]",
		"config.policy.engine=ranger", "config.policy.ranger.admin_password_file=/run/secrets/ranger_password",
		"config.policy.mask_key=[REDACTED]", "config.policy.ranger.admin_password=[REDACTED]", "config.access_control.ranger.admin_password=[REDACTED]",
		"config.catalog.lake.uri=http://polaris:8181/api/catalog", "config.catalog.lake.service_token=[REDACTED]", "config.catalog.lake.credential=[REDACTED]",
		"config.catalog.lake.properties.s3.endpoint=http://minio:9000", "config.catalog.lake.properties.s3.secret-access-key=[REDACTED]",
		"config.catalog.lake.properties.header.Authorization=[REDACTED]", "config.catalog.lake.property_files.s3.session-token=/run/secrets/session",
		"config.storage.commit_retries=9", "config.audit.redact_literals=true",
		"config.engine.trino.uri=https://trino:8443", "config.engine.trino.password=[REDACTED]", "config.engine.trino.catalogs.lake=iceberg",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the configuration line lacks %q:\n%s", want, text.String())
		}
	}
	// Every key is on the line, whatever its value.
	for _, k := range configKeys() {
		key := "config." + k.Path
		if rest, ok := strings.CutPrefix(k.Path, catalogTable+"."); ok {
			key = "config.catalog.lake." + rest
		}
		if rest, ok := strings.CutPrefix(k.Path, engineTable+"."); ok {
			key = "config.engine.trino." + rest
		}
		if !strings.Contains(text.String(), key) {
			t.Errorf("the configuration line lacks the key %s", key)
		}
	}
	if !strings.Contains(js.String(), `"mask_key":"[REDACTED]"`) || !strings.Contains(js.String(), `"listen":"0.0.0.0:6543"`) {
		t.Errorf("JSON configuration line: %s", js.String())
	}
}

// An unset secret shows as empty, not as [REDACTED]: the line says
// whether it is set.
func TestEffectiveConfigShowsUnsetSecretsAsEmpty(t *testing.T) {
	var text bytes.Buffer
	slog.New(slog.NewTextHandler(&text, nil)).Info("configuration", "config", effectiveConfig(defaultConfig()))
	if !strings.Contains(text.String(), `config.policy.mask_key="" `) || strings.Contains(text.String(), redacted) {
		t.Errorf("unset secrets: %s", text.String())
	}
}

// setSecrets gives every secret field of v (and of its nested tables) a
// distinct value and records it.
func setSecrets(v reflect.Value, secrets *[]string) {
	for i := range v.NumField() {
		f := v.Type().Field(i)
		switch {
		case f.Type.Kind() == reflect.Struct:
			setSecrets(v.Field(i), secrets)
		case f.Tag.Get("secret") == "true":
			s := "s3cr3t-of-" + f.Name + "-" + string(rune('a'+len(*secrets)))
			v.Field(i).SetString(s)
			*secrets = append(*secrets, s)
		}
	}
}

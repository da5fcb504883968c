package sql

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// setting describes one run-time parameter a session can SET and SHOW.
type setting struct {
	def string
	// report: sent to the client as ParameterStatus (GUC_REPORT).
	report bool
	// fixed: the value cannot be changed (SQE supports only this one).
	fixed bool
}

// knownSettings are the parameters clients commonly SET or SHOW.
var knownSettings = map[string]setting{
	"application_name":                    {def: "", report: true},
	"client_encoding":                     {def: "UTF8", report: true, fixed: true},
	"datestyle":                           {def: "ISO, MDY", report: true, fixed: true},
	"default_transaction_isolation":       {def: "read committed"},
	"extra_float_digits":                  {def: "1"},
	"integer_datetimes":                   {def: "on", report: true, fixed: true},
	"intervalstyle":                       {def: "postgres", report: true, fixed: true},
	"is_superuser":                        {def: "off", report: true, fixed: true},
	"search_path":                         {def: `"$user", public`},
	"server_encoding":                     {def: "UTF8", report: true, fixed: true},
	"session_authorization":               {def: "", report: true, fixed: true},
	"standard_conforming_strings":         {def: "on", report: true, fixed: true},
	"statement_timeout":                   {def: "0"},
	"timezone":                            {def: "UTC", report: true},
	"bytea_output":                        {def: "hex"},
	"lock_timeout":                        {def: "0"},
	"transaction_isolation":               {def: "read committed"},
	"transaction_read_only":               {def: "off"},
	"default_transaction_read_only":       {def: "off"},
	"max_identifier_length":               {def: "63", fixed: true},
	"lc_collate":                          {def: "C", fixed: true},
	"lc_ctype":                            {def: "C", fixed: true},
	"idle_in_transaction_session_timeout": {def: "0"},
	// The engine's configured parallelism replaces the default per
	// session (Engine.NewSession).
	parallelWorkersSetting: {def: "1"},
}

// displayNames gives the spelling PostgreSQL reports for mixed-case names.
var displayNames = map[string]string{
	"datestyle":     "DateStyle",
	"intervalstyle": "IntervalStyle",
	"timezone":      "TimeZone",
}

// settings is a session's parameter values.
type settings struct {
	values map[string]string
	// defaults are what RESET restores: the built-in value, or the one the
	// client gave at startup (application_name), as in PostgreSQL.
	defaults map[string]string
	// zone caches the location of the TimeZone value zoneName.
	zoneName string
	zone     *time.Location
}

func newSettings(user, serverVersion string, params map[string]string) *settings {
	s := &settings{values: map[string]string{}}
	for k, v := range knownSettings {
		s.values[k] = v.def
	}
	s.values["server_version"] = serverVersion
	s.values["server_version_num"] = versionNum(serverVersion)
	s.values["session_authorization"] = user
	if v, ok := params["application_name"]; ok {
		s.values["application_name"] = v
	}
	// pgjdbc and others send the client's zone at startup; one the server
	// does not know leaves the default, as an unusable setting would
	// otherwise refuse the connection.
	if v, ok := params["TimeZone"]; ok {
		if name, err := timeZoneSetting(v); err == nil {
			s.values["timezone"] = name
		}
	}
	s.defaults = make(map[string]string, len(s.values))
	for k, v := range s.values {
		s.defaults[k] = v
	}
	return s
}

func (s *settings) get(name string) (string, error) {
	v, ok := s.values[strings.ToLower(name)]
	if !ok {
		return "", pgerror.New(pgerror.UndefinedObject, "unrecognized configuration parameter \"%s\"", name)
	}
	return v, nil
}

// set changes a parameter. Values SQE cannot honour are refused rather
// than silently ignored, except an identical value.
func (s *settings) set(name, value string) error {
	key := strings.ToLower(name)
	def, ok := knownSettings[key]
	if !ok {
		return pgerror.New(pgerror.UndefinedObject, "unrecognized configuration parameter \"%s\"", name)
	}
	if def.fixed && !sameSetting(key, s.values[key], value) {
		return pgerror.New(pgerror.FeatureNotSupported, "SQE supports only %s = '%s'", displayName(key), s.values[key])
	}
	if key == "timezone" {
		name, err := timeZoneSetting(value)
		if err != nil {
			return err
		}
		value = name
	}
	if key == "statement_timeout" {
		d, err := parseTimeSetting(key, value)
		if err != nil {
			return err
		}
		value = formatTimeSetting(d)
	}
	if key == parallelWorkersSetting {
		n, err := parseParallelWorkers(value)
		if err != nil {
			return err
		}
		value = strconv.Itoa(n)
	}
	if !def.fixed {
		s.values[key] = value
	}
	return nil
}

func sameSetting(key, current, value string) bool {
	norm := func(v string) string { return strings.ToLower(strings.ReplaceAll(v, " ", "")) }
	if norm(current) == norm(value) {
		return true
	}
	switch key {
	case "client_encoding":
		return norm(value) == "utf-8" || norm(value) == "unicode"
	case "datestyle":
		return norm(value) == "iso"
	}
	return false
}

func (s *settings) reset(name string) error {
	key := strings.ToLower(name)
	def, ok := knownSettings[key]
	if !ok {
		return pgerror.New(pgerror.UndefinedObject, "unrecognized configuration parameter \"%s\"", name)
	}
	if !def.fixed {
		s.values[key] = s.defaults[key]
	}
	return nil
}

func displayName(key string) string {
	if d, ok := displayNames[key]; ok {
		return d
	}
	return key
}

// reported returns the GUC_REPORT parameters with their current values.
func (s *settings) reported() map[string]string {
	out := map[string]string{}
	for k, def := range knownSettings {
		if def.report {
			out[displayName(k)] = s.values[k]
		}
	}
	return out
}

// all lists every parameter sorted by name, for SHOW ALL.
func (s *settings) all() [][2]string {
	keys := make([]string, 0, len(s.values))
	for k := range s.values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][2]string, len(keys))
	for i, k := range keys {
		out[i] = [2]string{displayName(k), s.values[k]}
	}
	return out
}

// searchPath is the list of namespaces unqualified names are looked up in.
func (s *settings) searchPath(user string) []string {
	var out []string
	for _, part := range strings.Split(s.values["search_path"], ",") {
		p := strings.TrimSpace(part)
		if strings.HasPrefix(p, `"`) && strings.HasSuffix(p, `"`) && len(p) >= 2 {
			p = strings.ReplaceAll(p[1:len(p)-1], `""`, `"`)
		} else {
			p = strings.ToLower(p)
		}
		if p == "$user" {
			p = user
		}
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// versionNum turns "15.18" into PostgreSQL's server_version_num "150018".
func versionNum(v string) string {
	major, minor, _ := strings.Cut(v, ".")
	m, err1 := strconv.Atoi(major)
	n, err2 := strconv.Atoi(minor)
	if err1 != nil || err2 != nil {
		return ""
	}
	return strconv.Itoa(m*10000 + n)
}

// setDefault makes value both the current value of key and what RESET
// restores.
func (s *settings) setDefault(key, value string) {
	s.values[key] = value
	s.defaults[key] = value
}

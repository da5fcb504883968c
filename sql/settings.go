package sql

import (
	"maps"
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
	// internal: PostgreSQL itself refuses every change (55P02), from
	// SET and the startup packet alike.
	internal bool
}

// knownSettings are the parameters clients commonly SET or SHOW.
var knownSettings = map[string]setting{
	"application_name":                    {def: "", report: true},
	"client_encoding":                     {def: "UTF8", report: true, fixed: true},
	"datestyle":                           {def: "ISO, MDY", report: true, fixed: true},
	"default_transaction_isolation":       {def: "read committed"},
	"extra_float_digits":                  {def: "1"},
	"in_hot_standby":                      {def: "off", report: true, internal: true},
	"integer_datetimes":                   {def: "on", report: true, internal: true},
	"intervalstyle":                       {def: "postgres", report: true, fixed: true},
	"is_superuser":                        {def: "off", report: true, internal: true},
	"search_path":                         {def: `"$user", public`},
	"server_encoding":                     {def: "UTF8", report: true, internal: true},
	"server_version":                      {internal: true},
	"server_version_num":                  {internal: true},
	"session_authorization":               {def: "", report: true, fixed: true},
	"standard_conforming_strings":         {def: "on", report: true, fixed: true},
	"statement_timeout":                   {def: "0"},
	"timezone":                            {def: "UTC", report: true},
	"bytea_output":                        {def: "hex"},
	"lock_timeout":                        {def: "0"},
	"transaction_isolation":               {def: "read committed"},
	"transaction_read_only":               {def: "off"},
	"default_transaction_read_only":       {def: "off", report: true},
	"max_identifier_length":               {def: "63", internal: true},
	"lc_collate":                          {def: "C", internal: true},
	"lc_ctype":                            {def: "C", internal: true},
	"idle_in_transaction_session_timeout": {def: "0"},
	// The engine's configured parallelism replaces the default per
	// session (Engine.NewSession).
	parallelWorkersSetting: {def: "1"},
	readAsOfSetting:        {def: ""},
	writeBranchSetting:     {def: ""},
	executionSetting:       {def: "local"},
	remoteEngineSetting:    {def: ""},
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
	// client gave in its startup packet, as in PostgreSQL.
	defaults map[string]string
	// zone caches the location of the TimeZone value zoneName.
	zoneName string
	zone     *time.Location
}

func newSettings(user, serverVersion string) *settings {
	s := &settings{values: map[string]string{}}
	for k, v := range knownSettings {
		s.values[k] = v.def
	}
	s.values["server_version"] = serverVersion
	s.values["server_version_num"] = versionNum(serverVersion)
	s.values["session_authorization"] = user
	s.defaults = maps.Clone(s.values)
	return s
}

func (s *settings) get(name string) (string, error) {
	v, ok := s.values[strings.ToLower(name)]
	if !ok {
		return "", unrecognizedSetting(name)
	}
	return v, nil
}

func unrecognizedSetting(name string) *pgerror.Error {
	return pgerror.New(pgerror.UndefinedObject, "unrecognized configuration parameter \"%s\"", name)
}

// lookupSetting finds the definition of a parameter being changed. A name
// SQE does not know is refused unless it is a custom parameter
// ("myapp.tenant"), which, as in PostgreSQL, takes any string.
func lookupSetting(name string) (setting, error) {
	key := strings.ToLower(name)
	if def, ok := knownSettings[key]; ok {
		return def, nil
	}
	if !strings.Contains(key, ".") {
		return setting{}, unrecognizedSetting(name)
	}
	if !validCustomName(key) {
		return setting{}, pgerror.New(pgerror.InvalidName, "invalid configuration parameter name \"%s\"", name).
			WithDetail("Custom parameter names must be two or more simple identifiers separated by dots.")
	}
	return setting{}, nil
}

// set changes a parameter after checking the value as PostgreSQL does.
// Valid values SQE cannot honour are refused rather than silently
// ignored, except one equal to the current value.
func (s *settings) set(name, value string) error {
	key := strings.ToLower(name)
	def, err := lookupSetting(name)
	if err != nil {
		return err
	}
	if def.internal {
		return pgerror.New(pgerror.CantChangeRuntimeParam, "parameter \"%s\" cannot be changed", name)
	}
	value, err = checkSetting(key, value)
	if err != nil {
		return err
	}
	if def.fixed {
		if !sameSetting(key, s.values[key], value) {
			return pgerror.New(pgerror.FeatureNotSupported, "SQE supports only %s = '%s'", displayName(key), s.values[key])
		}
		return nil
	}
	if n, err := strconv.Atoi(value); key == "extra_float_digits" && err == nil && n <= 0 {
		// Since PostgreSQL 12 every positive value prints the shortest
		// exact digits, which is all SQE prints.
		return pgerror.New(pgerror.FeatureNotSupported, "SQE supports only extra_float_digits from 1 to 3")
	}
	s.values[key] = value
	return nil
}

func sameSetting(key, current, value string) bool {
	norm := func(v string) string { return strings.ToLower(strings.ReplaceAll(v, " ", "")) }
	return norm(current) == norm(value)
}

func (s *settings) reset(name string) error {
	key := strings.ToLower(name)
	def, err := lookupSetting(name)
	if err != nil {
		return err
	}
	if !def.fixed && !def.internal {
		// A custom parameter never set at session start resets to "".
		s.values[key] = s.defaults[key]
	}
	return nil
}

// keepAsDefaults makes the current values what RESET restores: the
// settings of the startup packet are the session's defaults, as in
// PostgreSQL.
func (s *settings) keepAsDefaults() {
	s.defaults = maps.Clone(s.values)
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
	out := make([][2]string, 0, len(keys))
	for _, k := range keys {
		if _, known := knownSettings[k]; known {
			out = append(out, [2]string{displayName(k), s.values[k]})
		}
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

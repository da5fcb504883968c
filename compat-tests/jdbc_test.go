package compattests

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const (
	// jdbcDir holds the pgjdbc scenario.
	jdbcDir = "jdbc"
	// pgjdbcJar is Debian's pgjdbc (package libpostgresql-jdbc-java,
	// 42.5.x on bookworm).
	pgjdbcJar = "/usr/share/java/postgresql.jar"
	// javacTimeout bounds compiling the scenario.
	javacTimeout = 60 * time.Second
)

// jdbcWantStep is what one step of the pgjdbc scenario must report, as the
// JSON PostgreSQL 15's answer produces through the same driver.
// knownFailure, when set, is why SQE answers differently today and
// sqeState the SQLSTATE SQE fails the step with: the step must then still
// fail that way, so the list stays true when SQE catches up.
type jdbcWantStep struct {
	step         string
	want         string
	knownFailure string
	sqeState     string
}

// jdbcSession is the session step: who is connected, and what pgjdbc makes
// of the server's version.
const jdbcSession = `{"ok":true,"value":{"row":["alice","sales_wh"],"product":"PostgreSQL","major":15}}`

// jdbcOrdersEU are the two EU orders of more than 100.00 as getObject
// decodes them (id, region, amount, order_date).
const jdbcOrdersEU = `[[["Long",1],["String","EU"],["BigDecimal","120.50"],["Date","2024-01-15"]],
	[["Long",3],["String","EU"],["BigDecimal","310.25"],["Date","2024-03-22"]]]`

// jdbcPreparedRuns matches JdbcScenario.PREPARED_RUNS: runs 1-4 use the
// unnamed statement, the 5th a named one, the 6th and 7th binary results.
const jdbcPreparedRuns = 7

// jdbcSteps is the whole scenario, with PostgreSQL 15.18's answers over the
// same data (pgjdbc 42.5.5, Debian).
func jdbcSteps() []jdbcWantStep {
	runs := strings.TrimSuffix(strings.Repeat(jdbcOrdersEU+",", jdbcPreparedRuns), ",")
	return []jdbcWantStep{
		{step: "connect tls", want: jdbcSession},
		// currentSchema is sent as the startup parameter search_path,
		// options as they are: both set the session's search_path.
		{step: "currentSchema", want: `{"ok":true,"value":["acdemo","acdemo","0",3]}`},
		{step: "options", want: `{"ok":true,"value":["acdemo","acdemo","5s",3]}`},
		{step: "options refused", want: `{"ok":false,"error":{"sqlstate":"42704","message":"unrecognized configuration parameter \"no_such_setting\""}}`},
		{step: "connect plaintext", want: jdbcSession},
		{step: "prepared statement reuse", want: `{"ok":true,"value":{"server_prepared":true,"runs":[` + runs + `]}}`},
		{step: "fetch size in transaction", want: `{"ok":true,"value":[[1,"EU"],[2,"US"],[3,"EU"]]}`},
		{step: "result set metadata", want: `{"ok":true,"value":[
			{"label":"id","type":-5,"type_name":"int8","class":"java.lang.Long","precision":19,"scale":0,"nullable":0,"table":"orders"},
			{"label":"region","type":12,"type_name":"text","class":"java.lang.String","precision":2147483647,"scale":0,"nullable":1,"table":"orders"},
			{"label":"amount","type":2,"type_name":"numeric","class":"java.math.BigDecimal","precision":12,"scale":2,"nullable":1,"table":"orders"},
			{"label":"order_date","type":91,"type_name":"date","class":"java.sql.Date","precision":13,"scale":0,"nullable":1,"table":"orders"},
			{"label":"small","type":4,"type_name":"int4","class":"java.lang.Integer","precision":10,"scale":0,"nullable":2,"table":""},
			{"label":"f","type":8,"type_name":"float8","class":"java.lang.Double","precision":17,"scale":17,"nullable":2,"table":""},
			{"label":"b","type":-7,"type_name":"bool","class":"java.lang.Boolean","precision":1,"scale":0,"nullable":2,"table":""}]}`},
		{step: "getSchemas", want: `{"ok":true,"value":[["acdemo"],["information_schema"],["pg_catalog"],["public"]]}`},
		{step: "getTables", want: `{"ok":true,"value":[["acdemo","orders","TABLE",null],["acdemo","sales","TABLE",null]]}`},
		{step: "getColumns", want: `{"ok":true,"value":[
			["id","-5","int8","19","0","0","1","NO","NO"],
			["region","12","text","2147483647","0","1","2","YES","NO"],
			["ssn","12","text","2147483647","0","1","3","YES","NO"],
			["amount","2","numeric","12","2","1","4","YES","NO"],
			["order_date","91","date","13","0","1","5","YES","NO"]]}`},
		{step: "getPrimaryKeys", want: `{"ok":true,"value":[]}`},
		{step: "getTypeInfo", want: `{"ok":true,"value":[["bool",-7],["date",91],["float8",8],["int4",4],["int8",-5],["numeric",2],["text",12],["varchar",12]]}`},
		{step: "cancel", want: `{"ok":false,"error":{"sqlstate":"57014","message":"canceling statement due to user request"}}`},
		{step: "after cancel", want: `{"ok":true,"value":["Long",3]}`},
		{step: "error then rollback", want: `{"ok":true,"value":{
			"error":{"sqlstate":"22012","message":"division by zero"},
			"next":{"sqlstate":"25P02","message":"current transaction is aborted, commands ignored until end of transaction block"},
			"after_rollback":["Long",3]}}`},
	}
}

// TestJdbcScenario compiles jdbc/JdbcScenario.java against Debian's pgjdbc
// and runs it against the shared server as alice.
func TestJdbcScenario(t *testing.T) {
	t.Parallel()
	java, javac := toolOrFail(t, "java"), toolOrFail(t, "javac")
	if _, err := os.Stat(pgjdbcJar); err != nil {
		t.Fatalf("pgjdbc not found (%v): install the libpostgresql-jdbc-java package (make test does this)", err)
	}
	classes := t.TempDir()
	compileJdbcScenario(t, javac, classes)

	out := runScenario(t, shared.server, shared.token, classes, java,
		"-cp", classes+string(os.PathListSeparator)+pgjdbcJar, "JdbcScenario")
	var got []scenarioStep
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("decode the scenario's summary: %v\n%s", err, out)
	}
	checkJdbcSteps(t, got, jdbcSteps())
}

// compileJdbcScenario compiles the scenario into dir.
func compileJdbcScenario(t *testing.T, javac, dir string) {
	t.Helper()
	src, err := filepath.Abs(filepath.Join(jdbcDir, "JdbcScenario.java"))
	if err != nil {
		t.Fatalf("scenario source: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), javacTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, javac, "-Xlint:all", "-Werror", "-d", dir, "-cp", pgjdbcJar, src)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("javac JdbcScenario.java: %v\n%s", err, stderr.String())
	}
}

// checkJdbcSteps compares the reported steps with want, in order, one
// subtest per step. A step with a known failure must still differ from
// PostgreSQL's answer.
func checkJdbcSteps(t *testing.T, got []scenarioStep, want []jdbcWantStep) {
	t.Helper()
	names := make([]string, len(got))
	for i, g := range got {
		names[i] = g.Step
	}
	wantNames := make([]string, len(want))
	for i, w := range want {
		wantNames[i] = w.step
	}
	if strings.Join(names, "\n") != strings.Join(wantNames, "\n") {
		t.Fatalf("steps reported:\n  %q\nwant:\n  %q", names, wantNames)
	}
	for i, w := range want {
		g := got[i]
		t.Run(w.step, func(t *testing.T) {
			gotJSON := stepJSON(t, g)
			same := sameJSON(t, gotJSON, []byte(w.want))
			switch {
			case same && w.knownFailure != "":
				t.Errorf("step %q now answers like PostgreSQL: drop its known failure (%s)", w.step, w.knownFailure)
			case !same && w.knownFailure == "":
				var compact bytes.Buffer
				if err := json.Compact(&compact, []byte(w.want)); err != nil {
					t.Fatalf("expected JSON of step %q: %v", w.step, err)
				}
				t.Errorf("step %q reported\n  %s\nwant (what PostgreSQL answers)\n  %s", w.step, gotJSON, compact.String())
			case w.knownFailure != "" && jdbcSQLState(g) != w.sqeState:
				t.Errorf("step %q is known to fail with %s (%s) but reported\n  %s", w.step, w.sqeState, w.knownFailure, gotJSON)
			case !same:
				t.Logf("known failure (%s): %s", w.knownFailure, gotJSON)
			}
		})
	}
}

// jdbcSQLState is the SQLSTATE of a failed step, "" for a step that ran.
func jdbcSQLState(s scenarioStep) string {
	var e struct {
		SQLState string `json:"sqlstate"`
	}
	if s.OK || json.Unmarshal(s.Error, &e) != nil {
		return ""
	}
	return e.SQLState
}

// toolOrFail finds a program on PATH. A missing one is a failure, not a
// skip: make test installs it.
func toolOrFail(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s not found in PATH (%v): install the default-jdk-headless package (make test does this)", name, err)
	}
	return path
}

package compattests

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// updateTranscripts rewrites each transcript's expected output from the
// server's. Read the diff before committing it: the transcripts are what
// the users of spec/002 see.
var updateTranscripts = flag.Bool("update-transcripts", false, "rewrite testdata/transcripts/*.txt from the server's output")

// transcriptStep is one statement of a transcript: run by user through
// psql, answered with want (stdout, then stderr).
type transcriptStep struct {
	// preamble is the comment and blank lines before the step, kept when
	// the file is rewritten.
	preamble []string
	user     string
	sql      string
	want     []string
	line     int
}

// asLine switches the user the following statements run as.
var asLine = regexp.MustCompile(`^as ([a-z_][a-z0-9_]*)$`)

// readTranscript parses a transcript file:
//
//	# a comment
//	as alice
//	> SELECT id FROM acdemo.orders ORDER BY id;
//	id
//	1
//	(1 row)
//
// A line starting with "> " is one psql -c command (a statement, several
// separated by semicolons, or a backslash command); the lines after it up
// to the next command, comment, user switch or blank line are what psql
// prints for it.
func readTranscript(t *testing.T, path string) (steps []transcriptStep, trailer []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var (
		user     string
		preamble []string
		cur      *transcriptStep
	)
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "> "):
			if user == "" {
				t.Fatalf("%s:%d: a statement before the first \"as USER\" line", path, n)
			}
			steps = append(steps, transcriptStep{preamble: preamble, user: user, sql: strings.TrimPrefix(line, "> "), line: n})
			cur, preamble = &steps[len(steps)-1], nil
		case asLine.MatchString(line):
			user = asLine.FindStringSubmatch(line)[1]
			preamble = append(preamble, line)
			cur = nil
		case line == "" || strings.HasPrefix(line, "#"):
			preamble = append(preamble, line)
			cur = nil
		default:
			if cur == nil {
				t.Fatalf("%s:%d: output %q follows no statement", path, n, line)
			}
			cur.want = append(cur.want, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return steps, preamble
}

// writeTranscript writes steps back, each with its output replaced by got.
func writeTranscript(t *testing.T, path string, steps []transcriptStep, got [][]string, trailer []string) {
	t.Helper()
	var b strings.Builder
	for i, st := range steps {
		for _, l := range st.preamble {
			b.WriteString(l + "\n")
		}
		b.WriteString("> " + st.sql + "\n")
		for _, l := range got[i] {
			b.WriteString(l + "\n")
		}
	}
	for _, l := range trailer {
		b.WriteString(l + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runTranscript replays a transcript against srv, one psql process per
// statement, as the user each step names (a token from the embedded
// issuer: roles come from the governance store). Errors print with their
// SQLSTATE (VERBOSITY=verbose); rows unaligned with headers.
// snapshotIDs matches Iceberg snapshot ids in psql's output: 16 to 19
// digits, which no other transcript value has.
var snapshotIDs = regexp.MustCompile(`\b[0-9]{16,19}\b`)

func runTranscript(t *testing.T, srv *server, path string) {
	runTranscriptAs(t, srv, path, func(user string) (string, error) { return srv.mintCLI(user) })
}

// runTranscriptAs is runTranscript with the login token of each user
// minted by mint.
func runTranscriptAs(t *testing.T, srv *server, path string, mint func(user string) (string, error)) {
	steps, trailer := readTranscript(t, path)
	tokens := map[string]string{}
	got := make([][]string, len(steps))
	for i, st := range steps {
		token, ok := tokens[st.user]
		if !ok {
			var err error
			if token, err = mint(st.user); err != nil {
				t.Fatal(err)
			}
			tokens[st.user] = token
		}
		sql := st.sql
		res := runPsql(t, srv, psqlRun{user: st.user, password: token,
			args: []string{"-A", "-F", "|", "-v", "VERBOSITY=verbose", "-c", sql}})
		// Snapshot ids are random: a transcript shows each as <snapshot id>.
		got[i] = lines(snapshotIDs.ReplaceAllString(res.stdout+res.stderr, "<snapshot id>"))
		if failed := strings.Contains(res.stderr, "ERROR:"); failed != (res.exitCode != 0) {
			t.Errorf("%s:%d: psql exited %d with stderr %q", path, st.line, res.exitCode, res.stderr)
		}
		if *updateTranscripts {
			continue
		}
		if strings.Join(got[i], "\n") != strings.Join(st.want, "\n") {
			t.Fatalf("%s:%d: as %s: %s\ngot:\n%s\nwant:\n%s", path, st.line, st.user, sql,
				strings.Join(got[i], "\n"), strings.Join(st.want, "\n"))
		}
	}
	if *updateTranscripts {
		writeTranscript(t, path, steps, got, trailer)
	}
}

// TestGateOneWalkthrough replays spec/002 Part 1 through psql as its
// users against sqe serve --demo with the default (embedded) gate one.
// The demo's roles: analyst = alice, bob, carol; engineer = bob, carol;
// sqe_admin = carol; dave none.
// The audit log is on: afterwards it must hold the demo's grants and the
// walkthrough's privilege changes, refusals included.
func TestGateOneWalkthrough(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sqe.toml"), []byte("[audit]\nenabled = true\nsink = \"file\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dataDir := filepath.Join(dir, "data")
	srv := startTestServerIn(t, dataDir, true)
	runTranscript(t, srv, filepath.Join("testdata", "transcripts", "gate_one.txt"))
	if err := srv.stop(); err != nil {
		t.Fatalf("stop: %v\n%s", err, srv.log())
	}
	data, err := os.ReadFile(filepath.Join(dataDir, "audit.log"))
	if err != nil {
		t.Fatal(err)
	}
	var changes []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec struct {
			Kind, User, Action, Object, Result string
			Grantees                           []string
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("audit line %q: %v", l, err)
		}
		if rec.Kind == "privilege_change" {
			changes = append(changes, fmt.Sprintf("%s %s %s %v %s", rec.User, rec.Action, rec.Object, rec.Grantees, rec.Result))
		}
	}
	for _, want := range []string{
		"sqe-demo-loader GRANT table sales_wh.acdemo.orders [ROLE analyst] ok",
		"sqe-demo-loader CREATE POLICY table sales_wh.acdemo.orders [ROLE engineer] ok",
		"alice GRANT TABLE sales_wh.acdemo.orders [ROLE analyst] 42501",
		"carol REVOKE table sales_wh.acdemo.orders [ROLE analyst] ok",
		"bob DENY TABLE sales_wh.acdemo.orders [USER alice] 42501",
		"carol DENY table sales_wh.acdemo.orders [USER alice] ok",
	} {
		if !slices.Contains(changes, want) {
			t.Errorf("audit log lacks %q; privilege changes:\n%s", want, strings.Join(changes, "\n"))
		}
	}
}

// TestReadTranscript pins the transcript format the walkthrough relies on.
func TestReadTranscript(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.txt")
	text := "# c\nas alice\n> SELECT 1 + 1;\n?column?\n2\n(1 row)\n\nas bob\n> SELECT 2;\n> SELECT 3;\nx\n# end\n"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	steps, trailer := readTranscript(t, path)
	got := fmt.Sprintf("%d|%q|%q|%q|%q|%q|%q|%q", len(steps), steps[0].sql, steps[0].want, steps[1].user, steps[1].sql, steps[1].want, steps[2].want, trailer)
	want := `3|"SELECT 1 + 1;"|["?column?" "2" "(1 row)"]|"bob"|"SELECT 2;"|[]|["x"]|["# end"]`
	if got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
}

// TestGateTwoWalkthrough replays spec/002 Part 2 and its worked example
// through psql as its users against sqe serve --demo, whose gate two
// masks orders.ssn and keeps the EU rows for engineers.
//
// The audit log is written as Ranger audit events: afterwards it must
// hold bob's read of orders as Ranger's tooling reads it (gate one's
// allow, gate two's row filter and mask, each with its policy), and
// dave's refusal.
func TestGateTwoWalkthrough(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sqe.toml"), []byte("[audit]\nenabled = true\nsink = \"ranger\"\nranger_service = \"lakehouse\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dataDir := filepath.Join(dir, "data")
	srv := startTestServerIn(t, dataDir, true)
	runTranscript(t, srv, filepath.Join("testdata", "transcripts", "gate_two.txt"))
	if err := srv.stop(); err != nil {
		t.Fatalf("stop: %v\n%s", err, srv.log())
	}
	data, err := os.ReadFile(filepath.Join(dataDir, "audit.log"))
	if err != nil {
		t.Fatal(err)
	}
	var events []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var ev struct {
			Repo, ReqUser, Access, Resource, ResType, Enforcer, CliIP, LogType, ReqData string
			Result                                                                      int
			Policy                                                                      int64
		}
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("audit line %q: %v", l, err)
		}
		// The demo's grants are made by the server itself, from no client.
		if ev.Repo != "lakehouse" || ev.LogType != "RangerAudit" || (ev.CliIP != "127.0.0.1" && ev.ReqUser != "sqe-demo-loader") {
			t.Errorf("event %s: repo, log type or client", l)
		}
		if strings.Contains(l, "111-11-1111") || strings.Contains(l, "222-22-2222") {
			t.Errorf("event %s holds a stored ssn", l)
		}
		events = append(events, fmt.Sprintf("%s %s %s %s %d %t", ev.ReqUser, ev.Access, ev.Resource, ev.ResType, ev.Result, ev.Policy >= 0))
	}
	for _, want := range []string{
		"bob table-data-read sales_wh/acdemo/orders @table 1 true",
		"bob ROW_FILTER sales_wh/acdemo/orders @table 1 true",
		"bob MASK_SHOW_LAST_4 sales_wh/acdemo/orders/ssn @column 1 true",
		"alice table-data-read sales_wh/acdemo/orders @table 1 true",
	} {
		if !slices.Contains(events, want) {
			t.Errorf("audit log lacks %q; events:\n%s", want, strings.Join(events, "\n"))
		}
	}
}

// TestRenameKeepsPolicyWalkthrough replays, through psql against sqe
// serve --demo, a column masked for engineer and then renamed: bob reads
// NULL before and after.
func TestRenameKeepsPolicyWalkthrough(t *testing.T) {
	srv := startTestServer(t, true)
	runTranscript(t, srv, filepath.Join("testdata", "transcripts", "rename_keeps_policies.txt"))
}

// TestMetadataTablesWalkthrough replays, through psql against sqe serve
// --demo, the metadata tables of acdemo.orders as alice, bob and dave,
// then time travel, a tag and expiry on the same server.
func TestMetadataTablesWalkthrough(t *testing.T) {
	srv := startTestServer(t, true)
	runTranscript(t, srv, filepath.Join("testdata", "transcripts", "metadata_tables.txt"))
	runTranscript(t, srv, filepath.Join("testdata", "transcripts", "time_travel.txt"))
}

// TestPrivilegeViewsWalkthrough replays, through psql against sqe serve
// --demo, grants by an administrator and what \dp, \dn+, \l+,
// information_schema.table_privileges and has_*_privilege show of them to
// each user.
func TestPrivilegeViewsWalkthrough(t *testing.T) {
	srv := startTestServer(t, true)
	runTranscript(t, srv, filepath.Join("testdata", "transcripts", "privilege_views.txt"))
}

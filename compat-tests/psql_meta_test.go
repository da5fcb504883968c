package compattests

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// updatePsqlGolden rewrites testdata/psql/ from SQE's output. Each file was
// checked by eye against PostgreSQL 15 for the same schema before it was
// committed; rewrite them only for an intended change.
var updatePsqlGolden = flag.Bool("update-psql-golden", false, "rewrite testdata/psql/*.out from the server's output")

// psqlMetaCommands are psql's describe commands run against the demo. Where
// PostgreSQL shows objects SQE does not have, SQE shows its own: every
// object is owned by the role "sqe" (Iceberg records no owners), \l lists
// the configured catalogs only, and \du lists the caller and the roles its
// token grants, with the token's memberships, the owner "sqe", and the
// grantees and grantors of the grants the caller may see.
var psqlMetaCommands = []struct {
	name string
	args []string
	// stderr is what psql must write there (its "nothing found" notes).
	stderr string
}{
	{name: "l", args: []string{"-c", `\l`}},
	{name: "dn", args: []string{"-c", `\dn`}},
	// acdemo is not on the search path, so a bare \dt finds nothing.
	{name: "dt", args: []string{"-c", `\dt`}, stderr: "Did not find any relations.\n"},
	{name: "dt_acdemo", args: []string{"-c", `\dt acdemo.*`}},
	{name: "d_orders", args: []string{"-c", `\d acdemo.orders`}},
	{name: "d_plus_orders", args: []string{"-c", `\d+ acdemo.orders`}},
	{name: "du", args: []string{"-c", `\du`}},
	{name: "df", args: []string{"-c", `\df`}},
	{name: "dv", args: []string{"-c", `\dv`}, stderr: "Did not find any relations.\n"},
	{name: "x", args: []string{"-c", `\x`, "-c", "SELECT id, region, amount, order_date FROM acdemo.orders ORDER BY id"}},
}

func TestPsqlMetaCommandsMatchGolden(t *testing.T) {
	t.Parallel()
	for _, tt := range psqlMetaCommands {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := mustPsql(t, shared.server, psqlRun{password: shared.analystToken, args: tt.args})
			if res.stderr != tt.stderr {
				t.Errorf("stderr = %q, want %q", res.stderr, tt.stderr)
			}
			path := filepath.Join("testdata", "psql", tt.name+".out")
			if *updatePsqlGolden {
				if err := os.WriteFile(path, []byte(res.stdout), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if res.stdout != string(want) {
				t.Errorf("psql %q differs from %s\ngot:\n%s\nwant:\n%s", tt.args, path, res.stdout, want)
			}
		})
	}
}

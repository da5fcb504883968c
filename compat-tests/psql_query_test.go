package compattests

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const ordersQuery = "SELECT id, region, ssn FROM sales_wh.acdemo.orders ORDER BY id"

// ordersRows are the demo orders as psql prints them unaligned.
var ordersRows = []string{
	"1|EU|111-11-1111",
	"2|US|222-22-2222",
	"3|EU|333-33-3333",
}

func TestPsqlSelectsDemoOrders(t *testing.T) {
	t.Parallel()
	tests := []struct {
		sslmode string
		// wantTLS is whether \conninfo must report an SSL connection.
		wantTLS bool
	}{
		{sslmode: "disable", wantTLS: false},
		{sslmode: "require", wantTLS: true},
		{sslmode: "prefer", wantTLS: true},
	}
	for _, tt := range tests {
		t.Run(tt.sslmode, func(t *testing.T) {
			t.Parallel()
			res := mustPsql(t, shared.server, psqlRun{sslmode: tt.sslmode, password: shared.token, args: unaligned(ordersQuery)})
			if got := lines(res.stdout); !slices.Equal(got, ordersRows) {
				t.Errorf("rows = %q, want %q", got, ordersRows)
			}

			info := mustPsql(t, shared.server, psqlRun{sslmode: tt.sslmode, password: shared.token, args: []string{"-c", `\conninfo`}})
			if got := strings.Contains(info.stdout, "SSL connection"); got != tt.wantTLS {
				t.Errorf("\\conninfo reports TLS = %v, want %v:\n%s", got, tt.wantTLS, info.stdout)
			}
			if !strings.Contains(info.stdout, `database "sales_wh" as user "alice"`) {
				t.Errorf("\\conninfo does not name database and user:\n%s", info.stdout)
			}
		})
	}
}

func TestPsqlAlignedOutputMatchesGolden(t *testing.T) {
	t.Parallel()
	want, err := os.ReadFile(filepath.Join("testdata", "orders_aligned.golden"))
	if err != nil {
		t.Fatal(err)
	}
	res := mustPsql(t, shared.server, psqlRun{password: shared.token, args: []string{"-c", ordersQuery}})
	if res.stdout != string(want) {
		t.Errorf("aligned output differs from testdata/orders_aligned.golden\ngot:\n%s\nwant:\n%s", res.stdout, want)
	}
	if res.stderr != "" {
		t.Errorf("psql wrote to stderr: %s", res.stderr)
	}
}

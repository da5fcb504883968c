package compattests

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/governance/polarisadmin/polaristest"
)

// TestGateOnePolarisWalkthrough replays spec/002 Part 1 through psql
// against sqe serve with [access_control] backend = "polaris": GRANT and
// REVOKE become Polaris catalog-role grants written through the
// management API of a Polaris running in this process, the one catalog
// is Polaris's REST catalog, and Polaris decides every catalog request
// made with the user's own token. The Polaris principals are those an
// operator would create (alice, bob, carol, dave, frank, grace); carol
// holds Polaris's catalog_admin (through the principal role data_admin)
// and SQE's administrator role sqe_admin (in her token). SHOW GRANTS and
// CHECK ACCESS answer in the embedded backend's columns, with Polaris's
// privilege names.
func TestGateOnePolarisWalkthrough(t *testing.T) {
	const secret = "polaris-root-secret"
	fake := polaristest.New(t, secret, "sales_wh")
	fake.AddPrincipal("alice", "bob", "carol", "dave", "frank", "grace")
	fake.GrantCatalogAdmin("carol", "data_admin")

	dir := t.TempDir()
	// The client secret is a secret: sqe.toml names the file holding it.
	secretFile := filepath.Join(dir, "polaris-secret")
	if err := os.WriteFile(secretFile, []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf(`[access_control]
backend = "polaris"
url = %q

[access_control.polaris]
client_id = "root"
client_secret_file = %q

[[catalog]]
name = "sales_wh"
type = "rest"
uri = %q
warehouse = "sales_wh"
`, fake.URL, secretFile, fake.URL+"/api/catalog")
	if err := os.WriteFile(filepath.Join(dir, "sqe.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startTestServerIn(t, filepath.Join(dir, "data"), false)
	runTranscriptAs(t, srv, filepath.Join("testdata", "transcripts", "gate_one_polaris.txt"), func(user string) (string, error) {
		if user == "carol" {
			return srv.mintAdmin(user)
		}
		return srv.mintCLI(user)
	})

	// The grants are Polaris's: the catalog role analyst holds them.
	var held []string
	for _, g := range fake.Grants("sales_wh", "analyst") {
		held = append(held, fmt.Sprintf("%s %s %s %s", g.Type, strings.Join(g.Namespace, "."), g.TableName, g.Privilege))
	}
	if want := "table acdemo orders TABLE_READ_DATA"; !slices.Contains(held, want) {
		t.Errorf("catalog role analyst holds %q, want %q among them", held, want)
	}
	// Neither the client secret nor a management token reaches the log.
	if err := srv.stop(); err != nil {
		t.Fatalf("stop: %v\n%s", err, srv.log())
	}
	for _, s := range []string{secret, "principal:"} {
		if strings.Contains(srv.log(), s) {
			t.Errorf("the server log holds %q", s)
		}
	}
}

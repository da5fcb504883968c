package compattests

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// accessScreenshotEnv names a file the access page test also writes its
// screenshot to (docs/access-page.png is made so).
const accessScreenshotEnv = "SQE_ACCESS_SCREENSHOT"

// catalogNames are names of the demo's catalog that a refused caller must
// never see in a body.
var catalogNames = []string{"acdemo", "orders", "sales_wh", "alice", "ssn", "acdemo_mask_ssn"}

// TestAccessPage loads /access of a demo server in a headless Chromium as
// carol, an administrator, and checks the matrix of acdemo.orders: bob
// sees ssn masked by acdemo_mask_ssn and only the EU rows, alice sees it
// raw, dave not at all. Everyone else gets 403 and nothing of the
// catalog, and the page loads nothing from anywhere but the server.
func TestAccessPage(t *testing.T) {
	t.Parallel()
	chromium := toolPath(t, "chromium", "chromium")
	s := startTestServer(t, true)
	base := "http://" + s.httpAddr(t)
	carol, err := s.mintCLI("carol") // an administrator through the role store
	if err != nil {
		t.Fatal(err)
	}
	bob, err := s.mintCLI("bob")
	if err != nil {
		t.Fatal(err)
	}

	t.Run("refusals", func(t *testing.T) {
		api := "/access/api/table?schema=acdemo&table=orders"
		for _, tc := range []struct {
			name, path, token string
		}{
			{"bob, the page", "/access", bob},
			{"bob, the API", api, bob},
			{"bob, the principals", "/access/api/principals", bob},
			{"bob, CSV", api + "&format=csv", bob},
			{"no token, the API", api, ""},
			{"a bad token, the page", "/access", "not-a-jwt"},
			{"a bad token, the API", api, "not-a-jwt"},
		} {
			status, body := accessGet(t, base+tc.path, tc.token)
			if status != http.StatusForbidden {
				t.Errorf("%s: GET %s = %d, want 403", tc.name, tc.path, status)
			}
			for _, n := range catalogNames {
				if strings.Contains(body, n) {
					t.Errorf("%s: the refusal names %q: %s", tc.name, n, body)
				}
			}
		}
		// Without any token the page's shell is served, holding no data.
		status, body := accessGet(t, base+"/access", "")
		if status != http.StatusOK || !strings.Contains(body, "SQE access report") {
			t.Errorf("GET /access without a token = %d, want the page's shell", status)
		}
		for _, n := range catalogNames {
			if strings.Contains(body, n) {
				t.Errorf("the page's shell names %q", n)
			}
		}
	})

	t.Run("CSV", func(t *testing.T) {
		status, body := accessGet(t, base+"/access/api/table?schema=acdemo&table=orders&format=csv", carol)
		if status != http.StatusOK {
			t.Fatalf("CSV = %d: %s", status, body)
		}
		for _, want := range []string{
			"catalog,schema,table,user,role,column_name,access,mask_type,expression,policy,source,store,detail\n",
			",acdemo,orders,bob,,ssn,masked,MASK_SHOW_LAST_4,",
			",acdemo,orders,bob,,(rows),filtered,,region = 'EU',acdemo_rowfilter_eu,resource,embedded,",
			",acdemo,orders,alice,,ssn,raw,",
			",acdemo,orders,dave,,(table),denied,",
			",acdemo,orders,,engineer,ssn,masked,MASK_SHOW_LAST_4,",
			",acdemo,orders,,analyst,(table),allowed,",
		} {
			if !strings.Contains(body, want) {
				t.Errorf("the CSV lacks %q:\n%s", want, body)
			}
		}
	})

	cells, shot := browseAccessPage(t, chromium, base, carol)
	tests := []struct {
		user, column string
		want         accessCell
		text         []string // in what the cell shows
	}{
		{"bob", "ssn", accessCell{Access: "masked", Mask: "MASK_SHOW_LAST_4", Policy: "acdemo_mask_ssn", Store: "embedded"},
			[]string{"MASKED", "MASK_SHOW_LAST_4", "acdemo_mask_ssn", "embedded"}},
		{"bob", "(rows)", accessCell{Access: "filtered", Filter: "region = 'EU'", Policy: "acdemo_rowfilter_eu"},
			[]string{"region = 'EU'", "acdemo_rowfilter_eu"}},
		{"bob", "id", accessCell{Access: "raw"}, []string{"RAW"}},
		{"alice", "ssn", accessCell{Access: "raw"}, []string{"RAW"}},
		{"alice", "(rows)", accessCell{Access: "all"}, []string{"ALL ROWS"}},
		{"dave", "ssn", accessCell{Access: "no access"}, []string{"NO ACCESS"}},
		{"dave", "(rows)", accessCell{Access: "no access"}, []string{"NO ACCESS"}},
		{"dave", "(table)", accessCell{Access: "denied"}, []string{"No matching grant for dave"}},
		// The roles' rows: what a member holding nothing else sees.
		{"role engineer", "ssn", accessCell{Access: "no access"}, []string{"NO ACCESS"}},
		{"role engineer", "(table)", accessCell{Access: "denied"}, []string{"No matching grant for a member of role engineer"}},
		{"role analyst", "ssn", accessCell{Access: "raw"}, []string{"RAW"}},
		{"role analyst", "(table)", accessCell{Access: "allowed"}, []string{"ALLOWED"}},
		{"role sqe_admin", "(table)", accessCell{Access: "allowed"}, []string{"administrator role"}},
	}
	for _, tc := range tests {
		got, ok := cells[tc.user+"/"+tc.column]
		if !ok {
			t.Errorf("the matrix has no cell for %s, %s", tc.user, tc.column)
			continue
		}
		text := got.Text
		got.Text = ""
		if got != tc.want {
			t.Errorf("%s, %s: cell %+v, want %+v", tc.user, tc.column, got, tc.want)
		}
		for _, w := range tc.text {
			if !strings.Contains(text, w) {
				t.Errorf("%s, %s: the cell shows %q, want %q in it", tc.user, tc.column, text, w)
			}
		}
	}

	cfg, err := png.DecodeConfig(bytes.NewReader(shot))
	if err != nil || cfg.Width < 800 || cfg.Height < 300 {
		t.Fatalf("the screenshot is not a page-sized PNG (%v, %dx%d)", err, cfg.Width, cfg.Height)
	}
	path := filepath.Join(t.TempDir(), "access-page.png")
	if err := os.WriteFile(path, shot, 0o600); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(path); err != nil || info.Size() == 0 {
		t.Fatalf("screenshot %s: %v", path, err)
	}
	if out := os.Getenv(accessScreenshotEnv); out != "" {
		if err := os.WriteFile(out, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot written to %s", out)
	}
}

// accessCell is one matrix cell as the page marks it up.
type accessCell struct {
	Access, Mask, Policy, Store, Filter string
	Text                                string
}

// browseAccessPage opens the page in Chromium, signs in by pasting token,
// waits for acdemo.orders' matrix, then checks the other views. It
// returns the matrix's cells by "user/column" and a screenshot of the
// page (PNG).
func browseAccessPage(t *testing.T, chromium, base, token string) (map[string]accessCell, []byte) {
	t.Helper()
	// This machine's network is closed; without these flags Chromium
	// waits on services it cannot reach.
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1360, 900),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	var (
		mu       sync.Mutex
		requests []string
		console  []string // the page's console and exceptions, for a failure's message
	)
	ctx, cancel := chromedp.NewContext(allocCtx, chromedp.WithListener(func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			requests = append(requests, e.Request.URL)
		case *runtime.EventExceptionThrown:
			console = append(console, "exception: "+e.ExceptionDetails.Text)
		case *runtime.EventConsoleAPICalled:
			for _, a := range e.Args {
				console = append(console, string(e.Type)+": "+string(a.Value)+a.Description)
			}
		}
	}))
	defer cancel()
	// The browser starts on the first action, which gets no deadline.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	step, cancelStep := context.WithTimeout(ctx, 2*time.Minute)
	defer cancelStep()

	const matrixLoaded = `#matrix[data-loaded="sales_wh.acdemo.orders"] table`
	err := chromedp.Do(step,
		chromedp.Navigate(base+"/access#schema=acdemo&table=orders"),
		chromedp.WaitVisible(chromedp.ID("token")),
		chromedp.SetValue(chromedp.ID("token"), token),
		chromedp.Click(chromedp.CSS(`#token-form button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(matrixLoaded)),
	)
	if err != nil {
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("load the matrix: %v\nthe page shows:\n%s\nconsole:\n%s\nrequests: %v", err, text, strings.Join(console, "\n"), requests)
	}
	raw, err := chromedp.Run(step, chromedp.Evaluate[string](`JSON.stringify(Object.fromEntries(
		Array.from(document.querySelectorAll("#matrix td.cell")).map((td) => [
			(td.dataset.role ? "role " + td.dataset.role : td.dataset.user) + "/" + td.dataset.column,
			{Access: td.dataset.access || "", Mask: td.dataset.mask || "", Policy: td.dataset.policy || "",
			 Store: td.dataset.store || "", Filter: td.dataset.filter || "", Text: td.innerText}])))`))
	if err != nil {
		t.Fatalf("read the matrix: %v", err)
	}
	cells := map[string]accessCell{}
	if err := json.Unmarshal([]byte(raw), &cells); err != nil {
		t.Fatalf("the matrix's cells %s: %v", raw, err)
	}
	shot, err := chromedp.Run(step, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	// The token stays in the tab's session storage.
	if kept, err := chromedp.Run(step, chromedp.Evaluate[string](`sessionStorage.getItem("sqe.access.token")`)); err != nil || kept != token {
		t.Errorf("the token kept in sessionStorage: %v", err)
	}

	// One user's tables, and who reads a column.
	err = chromedp.Do(step,
		chromedp.Click(chromedp.CSS(`.tabs button[data-view="user"]`)),
		chromedp.Evaluate[chromedp.Void](`(() => { const s = document.getElementById("user"); s.value = "bob"; s.dispatchEvent(new Event("change")); })()`),
		chromedp.WaitVisible(chromedp.CSS(`#user-tables[data-loaded="bob"] table`)),
	)
	if err != nil {
		t.Fatalf("bob's tables: %v", err)
	}
	if text, err := chromedp.Run(step, chromedp.Text(chromedp.ID("user-tables"))); err != nil ||
		!strings.Contains(text, "sales_wh.acdemo.orders") || !strings.Contains(text, "MASK_SHOW_LAST_4") {
		t.Errorf("bob's tables show %q (%v), want acdemo.orders with ssn masked", text, err)
	}
	err = chromedp.Do(step,
		chromedp.Click(chromedp.CSS(`.tabs button[data-view="column"]`)),
		chromedp.SetValue(chromedp.ID("column"), "ssn"),
		chromedp.Click(chromedp.CSS(`#column-pick button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#column-readers[data-loaded="ssn"] table`)),
	)
	if err != nil {
		t.Fatalf("who reads ssn: %v", err)
	}
	readers, err := chromedp.Run(step, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#column-readers tbody tr")).map((tr) => tr.dataset.user + ":" + tr.cells[2].innerText.trim().toLowerCase())`))
	if err != nil {
		t.Fatalf("read the readers of ssn: %v", err)
	}
	for _, want := range []string{"alice:raw", "bob:masked"} {
		if !slices.Contains(readers, want) {
			t.Errorf("the readers of ssn %v lack %s", readers, want)
		}
	}
	for _, r := range readers {
		if strings.HasPrefix(r, "dave:") {
			t.Errorf("dave, refused the table, reads ssn: %v", readers)
		}
	}

	mu.Lock()
	defer mu.Unlock()
	for _, u := range requests {
		if !strings.HasPrefix(u, base+"/") && !strings.HasPrefix(u, "blob:") && !strings.HasPrefix(u, "data:") && u != "about:blank" {
			t.Errorf("the page asked for %s, outside the server", u)
		}
	}
	return cells, shot
}

// accessGet sends GET url with token as Bearer (none when empty) and
// returns the status and body.
func accessGet(t *testing.T, url, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	client := http.Client{Timeout: time.Minute}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

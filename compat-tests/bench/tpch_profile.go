package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/sqe-db/sqe/compat-tests/datagen"
)

// profileEnv is the configuration of an SQE server whose profiles the
// bench fetches: its HTTP endpoint on httpAddr, with /debug/pprof/ on.
func profileEnv(httpAddr string) []string {
	return []string{"SQE_HTTP__LISTEN=" + httpAddr, "SQE_HTTP__PPROF=true"}
}

// profileQuery writes two profiles of q into o.profileDir, after its
// measured runs: a CPU profile taken while q runs again and again for
// o.profileSeconds, and the allocation profile of the server's life,
// which began just before q's cold run (each query has a server of its
// own), so it holds q's allocations and the server's start-up.
func profileQuery(ctx context.Context, srv *sqeServer, httpAddr string, s *session, q datagen.Query, o tpchOptions) (err error) {
	token, err := srv.token(benchUser, []string{benchAdminRole}, time.Hour)
	if err != nil {
		return err
	}
	base := filepath.Join(o.profileDir, fmt.Sprintf("tpch-sf%s-%s", strconv.FormatFloat(o.sf, 'f', -1, 64), q.Name))
	cpuPath := fmt.Sprintf("/debug/pprof/profile?seconds=%d", o.profileSeconds)
	cpuDone := make(chan error, 1)
	go func() { cpuDone <- fetchProfile(ctx, httpAddr, token, cpuPath, base+".cpu.pb.gz") }()
	for running := true; running; {
		if err := runOnce(ctx, s, q, o.timeout); err != nil {
			return errors.Join(fmt.Errorf("profile %s: %w", q.Name, err), <-cpuDone)
		}
		select {
		case err := <-cpuDone:
			if err != nil {
				return err
			}
			running = false
		default:
		}
	}
	return fetchProfile(ctx, httpAddr, token, "/debug/pprof/allocs", base+".allocs.pb.gz")
}

// runOnce runs q and reads its rows.
func runOnce(ctx context.Context, s *session, q datagen.Query, timeout time.Duration) error {
	conn, err := s.get(ctx)
	if err != nil {
		return err
	}
	qctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	_, _, err = readAll(qctx, conn, q.SQL, false)
	return err
}

// fetchProfile GETs path from the SQE HTTP endpoint at httpAddr as an
// administrator (token) and writes the profile to file.
func fetchProfile(ctx context.Context, httpAddr, token, path, file string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+httpAddr+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := (&http.Client{}).Do(req)
	if err != nil {
		return fmt.Errorf("fetch %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
		return fmt.Errorf("fetch %s: %s: %s", path, resp.Status, firstLine(string(msg)))
	}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("fetch %s: %w", path, err)
	}
	return os.WriteFile(file, data, 0o644)
}

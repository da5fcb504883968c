package main

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/storage"
)

// The copy suite loads one generated file of lineitem-like rows with
// psql's \copy (COPY ... FROM STDIN, text format) into SQE and into
// PostgreSQL 15, and reports rows per second for each. It is run by hand
// (-suite copy); nothing asserts on its timings.

// copyNamespace and copyTable name the table both servers load.
const (
	copyNamespace = "bench"
	copyTable     = "lineitem"
)

// copyTableDDL is the table in PostgreSQL; copySchema the same for SQE.
const copyTableDDL = `CREATE TABLE bench.lineitem (
	l_orderkey bigint NOT NULL, l_partkey bigint NOT NULL, l_suppkey bigint NOT NULL, l_linenumber integer NOT NULL,
	l_quantity numeric(15,2), l_extendedprice numeric(15,2), l_discount numeric(15,2), l_tax numeric(15,2),
	l_returnflag text, l_linestatus text, l_shipdate date, l_commitdate date, l_receiptdate date,
	l_shipinstruct text, l_shipmode text, l_comment text)`

func copySchema() *arrow.Schema {
	dec := &arrow.Decimal128Type{Precision: 15, Scale: 2}
	f := func(name string, t arrow.DataType, nullable bool) arrow.Field {
		return arrow.Field{Name: name, Type: t, Nullable: nullable}
	}
	return arrow.NewSchema([]arrow.Field{
		f("l_orderkey", arrow.PrimitiveTypes.Int64, false), f("l_partkey", arrow.PrimitiveTypes.Int64, false),
		f("l_suppkey", arrow.PrimitiveTypes.Int64, false), f("l_linenumber", arrow.PrimitiveTypes.Int32, false),
		f("l_quantity", dec, true), f("l_extendedprice", dec, true), f("l_discount", dec, true), f("l_tax", dec, true),
		f("l_returnflag", arrow.BinaryTypes.String, true), f("l_linestatus", arrow.BinaryTypes.String, true),
		f("l_shipdate", arrow.FixedWidthTypes.Date32, true), f("l_commitdate", arrow.FixedWidthTypes.Date32, true),
		f("l_receiptdate", arrow.FixedWidthTypes.Date32, true), f("l_shipinstruct", arrow.BinaryTypes.String, true),
		f("l_shipmode", arrow.BinaryTypes.String, true), f("l_comment", arrow.BinaryTypes.String, true),
	}, nil)
}

// writeLineitemFile writes rows lineitem-like rows in COPY text format,
// the same for every run (a fixed seed).
func writeLineitemFile(path string, rows int) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	instructs := []string{"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"}
	modes := []string{"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"}
	words := strings.Fields("furiously regular deposits sleep quickly final accounts haggle carefully ironic packages nag blithely express requests")
	base := time.Date(1992, 1, 1, 0, 0, 0, 0, time.UTC)
	var line []byte
	for i := 0; i < rows; i++ {
		ship := base.AddDate(0, 0, rng.IntN(2500))
		line = line[:0]
		line = strconv.AppendInt(line, int64(i/4+1), 10)
		line = append(line, '\t')
		line = strconv.AppendInt(line, int64(rng.IntN(200000)+1), 10)
		line = append(line, '\t')
		line = strconv.AppendInt(line, int64(rng.IntN(10000)+1), 10)
		line = append(line, '\t')
		line = strconv.AppendInt(line, int64(i%4+1), 10)
		for _, cents := range []int{rng.IntN(5000) + 100, rng.IntN(10000000) + 90000, rng.IntN(11), rng.IntN(9)} {
			line = append(line, '\t')
			line = strconv.AppendInt(line, int64(cents/100), 10)
			line = append(line, '.')
			line = append(line, byte('0'+cents%100/10), byte('0'+cents%10))
		}
		line = append(line, '\t')
		line = append(line, "RAN"[rng.IntN(3)], '\t', "OF"[rng.IntN(2)])
		for _, d := range []time.Time{ship, ship.AddDate(0, 0, rng.IntN(60)-30), ship.AddDate(0, 0, rng.IntN(30)+1)} {
			line = append(line, '\t')
			line = d.AppendFormat(line, "2006-01-02")
		}
		line = append(line, '\t')
		line = append(line, instructs[rng.IntN(len(instructs))]...)
		line = append(line, '\t')
		line = append(line, modes[rng.IntN(len(modes))]...)
		line = append(line, '\t')
		for k := 0; k < 3+rng.IntN(4); k++ {
			if k > 0 {
				line = append(line, ' ')
			}
			line = append(line, words[rng.IntN(len(words))]...)
		}
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			f.Close()
			return 0, err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, err
	}
	st, err := f.Stat()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// runCopySuite measures COPY FROM STDIN on both servers.
func runCopySuite(ctx context.Context, opts options, bin, work string) (err error) {
	file := filepath.Join(work, "lineitem.tsv")
	progress("writing %s lineitem-like rows", sizeLabel(opts.copyRows))
	size, err := writeLineitemFile(file, opts.copyRows)
	if err != nil {
		return err
	}
	// PostgreSQL's server does not read the file: psql does, as for SQE.
	if err := os.Chmod(file, 0o644); err != nil {
		return err
	}

	dataDir := filepath.Join(work, "sqe-copy")
	if err := prepareCopyDir(ctx, dataDir); err != nil {
		return err
	}
	sqe, err := startSQE(ctx, bin, work, dataDir, false, "sqe-copy")
	if err != nil {
		return err
	}
	iss, err := auth.OpenEmbeddedIssuer(dataDir)
	if err != nil {
		_ = sqe.Stop()
		return err
	}
	token, err := iss.Mint(auth.TokenRequest{User: benchUser, Roles: []string{benchAdminRole}, TTL: time.Hour})
	if err != nil {
		_ = sqe.Stop()
		return err
	}
	host, port, _ := strings.Cut(sqe.addr, ":")
	progress("COPY into SQE")
	sqeTime, sqeOut, err := psqlCopy(ctx, file, "host="+host+" port="+port+" user="+benchUser+" dbname="+sqeDatabase+" sslmode=disable", token)
	if serr := sqe.Stop(); err == nil {
		err = serr
	}
	if err != nil {
		return fmt.Errorf("copy into SQE: %w\n%s", err, sqeOut)
	}

	pg, err := startPostgres(ctx, opts.pgBin, work, "postgres-copy", true)
	if err != nil {
		return err
	}
	defer func() {
		if serr := pg.Stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	conn, err := pg.createDatabase(ctx, sqeDatabase)
	if err != nil {
		return err
	}
	for _, stmt := range []string{"CREATE SCHEMA " + copyNamespace, copyTableDDL} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			conn.Close(ctx)
			return fmt.Errorf("postgres: %w", err)
		}
	}
	conn.Close(ctx)
	progress("COPY into PostgreSQL")
	pgTime, pgOut, err := psqlCopy(ctx, file, fmt.Sprintf("host=127.0.0.1 port=%d user=%s dbname=%s sslmode=disable", pg.port, benchUser, sqeDatabase), "")
	if err != nil {
		return fmt.Errorf("copy into PostgreSQL: %w\n%s", err, pgOut)
	}

	fmt.Printf("\nCOPY FROM STDIN (psql \\copy, text format) of %d lineitem-like rows, %.1f MB\n", opts.copyRows, float64(size)/1e6)
	fmt.Printf("%-14s %10s %14s  %s\n", "server", "seconds", "rows/s", "psql said")
	for _, r := range []struct {
		name string
		d    time.Duration
		out  string
	}{{"SQE", sqeTime, sqeOut}, {"PostgreSQL 15", pgTime, pgOut}} {
		fmt.Printf("%-14s %10.2f %14.0f  %s\n", r.name, r.d.Seconds(), float64(opts.copyRows)/r.d.Seconds(), strings.TrimSpace(r.out))
	}
	return nil
}

// prepareCopyDir creates the empty target table in a fresh data directory
// through the storage API.
func prepareCopyDir(ctx context.Context, dataDir string) (err error) {
	cat, err := storage.OpenEmbedded(ctx, sqeDatabase, dataDir, storage.AllowAll{})
	if err != nil {
		return fmt.Errorf("prepare copy data dir: %w", err)
	}
	defer func() {
		if cerr := cat.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	loader := storage.WithPrincipal(ctx, storage.Principal{User: benchUser})
	if err := cat.CreateNamespace(loader, copyNamespace); err != nil {
		return fmt.Errorf("prepare copy data dir: %w", err)
	}
	if _, err := cat.CreateTable(loader, copyNamespace, copyTable, copySchema(), storage.CreateTableOptions{}); err != nil {
		return fmt.Errorf("prepare copy data dir: %w", err)
	}
	return nil
}

// psqlCopy runs psql's \copy of file into the table and times it.
func psqlCopy(ctx context.Context, file, conninfo, password string) (time.Duration, string, error) {
	cmd := exec.CommandContext(ctx, "psql", "-X", "-v", "ON_ERROR_STOP=1", "-d", conninfo,
		"-c", fmt.Sprintf(`\copy %s.%s from '%s'`, copyNamespace, copyTable, file))
	cmd.Env = withoutSQEVars(os.Environ())
	if password != "" {
		cmd.Env = append(cmd.Env, "PGPASSWORD="+password)
	}
	start := time.Now()
	out, err := cmd.CombinedOutput()
	return time.Since(start), string(out), err
}

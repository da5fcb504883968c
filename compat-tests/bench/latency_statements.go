package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sqe-db/sqe/compat-tests/bicorpus"
)

// latencyProtocol is how a client sends a statement.
type latencyProtocol int

const (
	// protoSimple is one simple Query with text results: psql,
	// psycopg2 (parameters inlined as literals) and pgconn.Exec, which
	// Grafana's panel and metadata queries and pgx's Ping use.
	protoSimple latencyProtocol = iota
	// protoPrepared is pgx's default: a named statement parsed and
	// described once per connection, then Bind and Execute with binary
	// parameters and results.
	protoPrepared
	// protoUnnamed is what pgjdbc sends for a Statement or a
	// PreparedStatement below its prepare threshold: the unnamed
	// statement, parameters typed varchar and sent as text, Parse, Bind,
	// Describe(portal), Execute, Sync.
	protoUnnamed
)

func (p latencyProtocol) String() string {
	return [...]string{"simple", "prepared", "unnamed"}[p]
}

// oidMarker stands, in a step's SQL, for the table OID the client read
// from the first step of its sequence and sends back as a literal.
const oidMarker = "{oid}"

// latencyStep is one statement a client sends.
type latencyStep struct {
	sql   string
	proto latencyProtocol
	// params are bound as they are (text for protoUnnamed).
	params []string
	// args, when set, gives the parameters of each run (run -1 is the
	// warm-up), for statements whose key changes from run to run.
	args func(run int) []any
	// userRows compares only the rows that name no schema of
	// PostgreSQL's own (pg_catalog, information_schema): for a catalog
	// query that lists every object of its kind, where PostgreSQL has
	// built-ins SQE has not (information_schema's domains).
	userRows bool
}

// compare is how a step's answers on the two servers are compared.
type compare int

const (
	// compareCount: the same number of rows.
	compareCount compare = iota
	// compareUserRows: the same number of rows naming no system schema.
	compareUserRows
	// compareNonEmpty: at least one row on each, for EXPLAIN, whose
	// plans have as many lines as each engine's plan has nodes.
	compareNonEmpty
)

func (c compare) String() string {
	return [...]string{"same row count", "same row count naming no system schema", "rows on both"}[c]
}

// compare is how the step's answers are compared.
func (s latencyStep) compare() compare {
	switch {
	case s.userRows:
		return compareUserRows
	case strings.HasPrefix(strings.ToUpper(strings.TrimSpace(s.sql)), "EXPLAIN"):
		return compareNonEmpty
	}
	return compareCount
}

// systemSchemas are PostgreSQL's own schemas.
var systemSchemas = []string{"pg_catalog", "information_schema"}

// namesSystemSchema reports whether a row has a value naming one of
// systemSchemas.
func namesSystemSchema(values []string) bool {
	for _, v := range values {
		if slices.Contains(systemSchemas, v) {
			return true
		}
	}
	return false
}

// latencySequence is what one client call sends, in order. When
// bindOID is set, the first step finds a table and the first column of
// its first row, the table's OID, replaces oidMarker in the later steps:
// each run reads it again, as the client does on every call.
type latencySequence struct {
	steps   []latencyStep
	bindOID bool
}

// latencyStatement is one line of the table: what a run sends, timed
// from the first message to the last row of the last step.
type latencyStatement struct {
	label string
	proto string // as printed; the steps' protocol when empty
	seqs  []latencySequence
	// runs is the number of timed runs; 0 means the suite's -latency-runs.
	runs int
	// writes is set for the INSERT, whose rows are counted afterwards
	// instead of compared between the servers.
	writes bool
	// skipSQE, when set, is why SQE does not run the statement.
	skipSQE string
}

// steps lists every step of every sequence.
func (s latencyStatement) steps() []latencyStep {
	var out []latencyStep
	for _, q := range s.seqs {
		out = append(out, q.steps...)
	}
	return out
}

// protocol is what the table prints in its protocol column.
func (s latencyStatement) protocol() string {
	if s.proto != "" {
		return s.proto
	}
	if steps := s.steps(); len(steps) > 0 {
		return steps[0].proto.String()
	}
	return ""
}

// oneStep is a statement of one step.
func oneStep(label, sql string, proto latencyProtocol) latencyStatement {
	return latencyStatement{label: label, seqs: []latencySequence{{steps: []latencyStep{{sql: sql, proto: proto}}}}}
}

// The catalog the introspection statements read: latencyTables tables of
// latencyColumns columns, spread round-robin over latencySchemas schemas
// s1..s5, so table tN lives in schema s((N-1)%5+1) and s1.t1 exists.
const (
	latencyTables  = 200
	latencyColumns = 20
	latencySchemas = 5
)

// latencyColumnTypes are the catalog's column types, taken in turn.
var latencyColumnTypes = []string{
	"bigint", "integer", "text", "numeric(12,2)", "date", "timestamp", "boolean",
	"double precision", "smallint", "varchar(40)",
}

// catalogTable names the n-th table (1-based) and its schema.
func catalogTable(n int) (schema, table string) {
	return "s" + strconv.Itoa((n-1)%latencySchemas+1), "t" + strconv.Itoa(n)
}

// catalogDDL creates the catalog: the schemas first, then the tables.
func catalogDDL() (schemas, tables []string) {
	for i := 1; i <= latencySchemas; i++ {
		schemas = append(schemas, "CREATE SCHEMA s"+strconv.Itoa(i))
	}
	for n := 1; n <= latencyTables; n++ {
		schema, table := catalogTable(n)
		cols := make([]string, latencyColumns)
		for c := range cols {
			notNull := ""
			if c == 0 {
				notNull = " NOT NULL"
			}
			cols[c] = fmt.Sprintf("c%d %s%s", c+1, latencyColumnTypes[(c+n)%len(latencyColumnTypes)], notNull)
		}
		tables = append(tables, fmt.Sprintf("CREATE TABLE %s.%s (%s)", schema, table, strings.Join(cols, ", ")))
	}
	return schemas, tables
}

// biNotRun are entries that are no statement to time, and why.
var biNotRun = map[string]string{
	"metabase-13": "COPY FROM STDIN loads rows: not a query",
	"superset-1":  "a pointer to SQLAlchemy's reflection SQL, timed below",
	"superset-3":  "a description of Inspector calls, timed below",
}

// biSplit are entries holding several statements, and their separator.
var biSplit = map[string]string{"metabase-2": " / "}

// biProtocolOf is how the suite sends an entry its tool sends with p:
// pgx's Ping and simple queries as simple queries (psycopg2 inlines its
// parameters), pgjdbc's unnamed statements as such, pgx's named ones
// prepared.
func biProtocolOf(p bicorpus.Protocol) latencyProtocol {
	switch p {
	case bicorpus.JDBC:
		return protoUnnamed
	case bicorpus.Pgx:
		return protoPrepared
	}
	return protoSimple
}

// biNote is an entry of the BI files the suite does not time on a
// server, and why.
type biNote struct {
	id, reason string
	sqeOnly    bool
}

// biStatements reads the BI tools' queries under root and makes one
// statement per entry, in file order. Entries that are no statement
// are left out, and those known to fail on SQE (known_failures.txt)
// are run on PostgreSQL only; both kinds come back as notes.
func biStatements(root string) ([]latencyStatement, []biNote, error) {
	dir := filepath.Join(root, "compat-tests", "testdata", "bi")
	known, err := bicorpus.ReadKnownFailures(filepath.Join(dir, "known_failures.txt"))
	if err != nil {
		return nil, nil, err
	}
	var stmts []latencyStatement
	var notes []biNote
	for _, tool := range bicorpus.Tools {
		entries, err := bicorpus.ReadEntries(dir, tool)
		if err != nil {
			return nil, nil, err
		}
		for _, e := range entries {
			if reason, ok := biNotRun[e.ID]; ok {
				notes = append(notes, biNote{id: e.ID, reason: reason})
				continue
			}
			proto := biProtocolOf(bicorpus.ProtocolOf(tool, e))
			parts := []string{e.SQL}
			if sep, ok := biSplit[e.ID]; ok {
				parts = strings.Split(e.SQL, sep)
			}
			var seq latencySequence
			for _, sql := range parts {
				if proto == protoUnnamed {
					sql = bicorpus.NumberPlaceholders(sql)
				}
				seq.steps = append(seq.steps, latencyStep{sql: sql, proto: proto, params: e.ParamsExample})
			}
			st := latencyStatement{label: e.ID, seqs: []latencySequence{seq}}
			if k, ok := known[e.ID]; ok {
				st.skipSQE = k.Gives + " | " + k.Feature
				notes = append(notes, biNote{id: e.ID, reason: "known failure on SQE: " + st.skipSQE, sqeOnly: true})
			}
			stmts = append(stmts, st)
		}
	}
	return stmts, notes, nil
}

// The SQL SQLAlchemy 2.0's PostgreSQL dialect (psycopg2, which inlines
// the parameters) sends for Inspector.get_columns(table, schema=...) and
// get_pk_constraint, as captured from SQLAlchemy 2.0.52 against
// PostgreSQL 15 and built in its dialects/postgresql/base.py. With a
// schema given, the dialect filters on pg_namespace.nspname instead of
// pg_table_is_visible. {schema} and {table} are inlined literals.
const (
	// sqlalchemyColumns is get_multi_columns' query for one table.
	sqlalchemyColumns = `SELECT pg_catalog.pg_attribute.attname AS name, pg_catalog.format_type(pg_catalog.pg_attribute.atttypid, pg_catalog.pg_attribute.atttypmod) AS format_type, (SELECT pg_catalog.pg_get_expr(pg_catalog.pg_attrdef.adbin, pg_catalog.pg_attrdef.adrelid) AS pg_get_expr_1 
FROM pg_catalog.pg_attrdef 
WHERE pg_catalog.pg_attrdef.adrelid = pg_catalog.pg_attribute.attrelid AND pg_catalog.pg_attrdef.adnum = pg_catalog.pg_attribute.attnum AND pg_catalog.pg_attribute.atthasdef) AS "default", pg_catalog.pg_attribute.attnotnull AS not_null, pg_catalog.pg_class.relname AS table_name, pg_catalog.pg_description.description AS comment, pg_catalog.pg_attribute.attgenerated AS generated, (SELECT json_build_object('always', pg_catalog.pg_attribute.attidentity = 'a', 'start', pg_catalog.pg_sequence.seqstart, 'increment', pg_catalog.pg_sequence.seqincrement, 'minvalue', pg_catalog.pg_sequence.seqmin, 'maxvalue', pg_catalog.pg_sequence.seqmax, 'cache', pg_catalog.pg_sequence.seqcache, 'cycle', pg_catalog.pg_sequence.seqcycle) AS json_build_object_1 
FROM pg_catalog.pg_sequence 
WHERE pg_catalog.pg_attribute.attidentity != '' AND pg_catalog.pg_sequence.seqrelid = CAST(CAST(pg_catalog.pg_get_serial_sequence(CAST(CAST(pg_catalog.pg_attribute.attrelid AS REGCLASS) AS TEXT), pg_catalog.pg_attribute.attname) AS REGCLASS) AS OID)) AS identity_options, CASE WHEN (pg_catalog.pg_attribute.attcollation != 0 AND (SELECT pg_catalog.pg_type.typcollation 
FROM pg_catalog.pg_type 
WHERE pg_catalog.pg_type.oid = pg_catalog.pg_attribute.atttypid) != pg_catalog.pg_attribute.attcollation) THEN (SELECT pg_catalog.pg_collation.collname 
FROM pg_catalog.pg_collation 
WHERE pg_catalog.pg_collation.oid = pg_catalog.pg_attribute.attcollation) ELSE NULL END AS collation 
FROM pg_catalog.pg_class LEFT OUTER JOIN pg_catalog.pg_attribute ON pg_catalog.pg_class.oid = pg_catalog.pg_attribute.attrelid AND pg_catalog.pg_attribute.attnum > 0 AND NOT pg_catalog.pg_attribute.attisdropped LEFT OUTER JOIN pg_catalog.pg_description ON pg_catalog.pg_description.objoid = pg_catalog.pg_attribute.attrelid AND pg_catalog.pg_description.objsubid = pg_catalog.pg_attribute.attnum JOIN pg_catalog.pg_namespace ON pg_catalog.pg_namespace.oid = pg_catalog.pg_class.relnamespace 
WHERE pg_catalog.pg_class.relkind = ANY (ARRAY['r', 'p', 'f', 'v', 'm']) AND pg_catalog.pg_namespace.nspname = '{schema}' AND pg_catalog.pg_class.relname IN ('{table}') ORDER BY pg_catalog.pg_class.relname, pg_catalog.pg_attribute.attnum`

	// sqlalchemyDomains is get_columns' look-up of the domains.
	sqlalchemyDomains = `SELECT pg_catalog.pg_type.typname AS name, pg_catalog.format_type(pg_catalog.pg_type.typbasetype, pg_catalog.pg_type.typtypmod) AS attype, NOT pg_catalog.pg_type.typnotnull AS nullable, pg_catalog.pg_type.typdefault AS "default", pg_catalog.pg_type_is_visible(pg_catalog.pg_type.oid) AS visible, pg_catalog.pg_namespace.nspname AS schema, domain_constraints.condefs, domain_constraints.connames, pg_catalog.pg_collation.collname 
FROM pg_catalog.pg_type JOIN pg_catalog.pg_namespace ON pg_catalog.pg_namespace.oid = pg_catalog.pg_type.typnamespace LEFT OUTER JOIN pg_catalog.pg_collation ON pg_catalog.pg_type.typcollation = pg_catalog.pg_collation.oid LEFT OUTER JOIN (SELECT pg_catalog.pg_constraint.contypid AS contypid, array_agg(pg_catalog.pg_get_constraintdef(pg_catalog.pg_constraint.oid, true)) AS condefs, array_agg(CAST(pg_catalog.pg_constraint.conname AS TEXT)) AS connames 
FROM pg_catalog.pg_constraint 
WHERE pg_catalog.pg_constraint.contypid != 0 GROUP BY pg_catalog.pg_constraint.contypid) AS domain_constraints ON pg_catalog.pg_type.oid = domain_constraints.contypid 
WHERE pg_catalog.pg_type.typtype = 'd' ORDER BY pg_catalog.pg_namespace.nspname, pg_catalog.pg_type.typname`

	// sqlalchemyEnums is get_columns' look-up of the enum types.
	sqlalchemyEnums = `SELECT pg_catalog.pg_type.typname AS name, pg_catalog.pg_type_is_visible(pg_catalog.pg_type.oid) AS visible, pg_catalog.pg_namespace.nspname AS schema, lbl_agg.labels AS labels 
FROM pg_catalog.pg_type JOIN pg_catalog.pg_namespace ON pg_catalog.pg_namespace.oid = pg_catalog.pg_type.typnamespace LEFT OUTER JOIN (SELECT pg_catalog.pg_enum.enumtypid AS enumtypid, array_agg(CAST(pg_catalog.pg_enum.enumlabel AS TEXT) ORDER BY pg_catalog.pg_enum.enumsortorder) AS labels 
FROM pg_catalog.pg_enum GROUP BY pg_catalog.pg_enum.enumtypid) AS lbl_agg ON pg_catalog.pg_type.oid = lbl_agg.enumtypid 
WHERE pg_catalog.pg_type.typtype = 'e' ORDER BY pg_catalog.pg_namespace.nspname, pg_catalog.pg_type.typname`

	// sqlalchemyTableOID is get_pk_constraint's look-up of the table.
	sqlalchemyTableOID = `SELECT pg_catalog.pg_class.oid, pg_catalog.pg_class.relname 
FROM pg_catalog.pg_class JOIN pg_catalog.pg_namespace ON pg_catalog.pg_namespace.oid = pg_catalog.pg_class.relnamespace 
WHERE pg_catalog.pg_class.relkind = ANY (ARRAY['r', 'p', 'f', 'v', 'm']) AND pg_catalog.pg_namespace.nspname = '{schema}' AND pg_catalog.pg_class.relname IN ('{table}')`

	// sqlalchemyPrimaryKey is get_pk_constraint's query, the table's OID
	// inlined.
	sqlalchemyPrimaryKey = `SELECT attr.conrelid, array_agg(CAST(attr.attname AS TEXT) ORDER BY attr.ord) AS cols, attr.conname, min(attr.description) AS description, min(attr.indnkeyatts) AS indnkeyatts, bool_and(attr.indnullsnotdistinct) AS indnullsnotdistinct 
FROM (SELECT con.conrelid AS conrelid, con.conname AS conname, con.description AS description, con.ord AS ord, con.indnkeyatts AS indnkeyatts, con.indnullsnotdistinct AS indnullsnotdistinct, pg_catalog.pg_attribute.attname AS attname 
FROM pg_catalog.pg_attribute JOIN (SELECT pg_catalog.pg_constraint.conrelid AS conrelid, pg_catalog.pg_constraint.conname AS conname, unnest(pg_catalog.pg_index.indkey) AS attnum, generate_subscripts(pg_catalog.pg_index.indkey, 1) AS ord, pg_catalog.pg_index.indnkeyatts AS indnkeyatts, pg_catalog.pg_index.indnullsnotdistinct AS indnullsnotdistinct, pg_catalog.pg_description.description AS description 
FROM pg_catalog.pg_constraint JOIN pg_catalog.pg_index ON pg_catalog.pg_constraint.conindid = pg_catalog.pg_index.indexrelid LEFT OUTER JOIN pg_catalog.pg_description ON pg_catalog.pg_description.objoid = pg_catalog.pg_constraint.oid 
WHERE pg_catalog.pg_constraint.contype = 'p' AND pg_catalog.pg_constraint.conrelid IN ({oid})) AS con ON pg_catalog.pg_attribute.attnum = con.attnum AND pg_catalog.pg_attribute.attrelid = con.conrelid 
WHERE con.conrelid IN ({oid})) AS attr GROUP BY attr.conrelid, attr.conname ORDER BY attr.conrelid, attr.conname`
)

// forTable inlines schema and table into one of the SQLAlchemy queries,
// as psycopg2 does with the dialect's parameters.
func forTable(sql, schema, table string) string {
	return strings.NewReplacer("{schema}", schema, "{table}", table).Replace(sql)
}

// sqlalchemyGetColumns is what Inspector.get_columns sends for one table.
func sqlalchemyGetColumns(schema, table string) latencySequence {
	return latencySequence{steps: []latencyStep{
		{sql: forTable(sqlalchemyColumns, schema, table)},
		{sql: sqlalchemyDomains, userRows: true},
		{sql: sqlalchemyEnums},
	}}
}

// sqlalchemyGetPK is what Inspector.get_pk_constraint sends for one
// table: the table's OID, then its primary key by that OID.
func sqlalchemyGetPK(schema, table string) latencySequence {
	return latencySequence{bindOID: true, steps: []latencyStep{
		{sql: forTable(sqlalchemyTableOID, schema, table)},
		{sql: sqlalchemyPrimaryKey},
	}}
}

// sqlalchemyStatements are get_columns and get_pk_constraint of s1.t1,
// then, unless sweeps is 0, both for every catalog table in one run,
// timed sweeps times, each call made as a fresh Inspector makes it
// (nothing cached between tables).
func sqlalchemyStatements(sweeps int) []latencyStatement {
	schema, table := catalogTable(1)
	all := latencyStatement{
		label: fmt.Sprintf("SQLAlchemy get_columns + get_pk_constraint, all %d tables", latencyTables),
		proto: protoSimple.String(), runs: sweeps,
	}
	for n := 1; n <= latencyTables; n++ {
		s, t := catalogTable(n)
		all.seqs = append(all.seqs, sqlalchemyGetColumns(s, t), sqlalchemyGetPK(s, t))
	}
	stmts := []latencyStatement{
		{label: fmt.Sprintf("SQLAlchemy get_columns %s.%s (3 queries)", schema, table), seqs: []latencySequence{sqlalchemyGetColumns(schema, table)}},
		{label: fmt.Sprintf("SQLAlchemy get_pk_constraint %s.%s (2 queries)", schema, table), seqs: []latencySequence{sqlalchemyGetPK(schema, table)}},
	}
	if sweeps > 0 {
		stmts = append(stmts, all)
	}
	return stmts
}

// pgjdbcGetColumns is the query pgjdbc 42.5's PgDatabaseMetaData.getColumns
// builds for (null, "s%", "%", "%"): the patterns inlined as literals,
// sent as a Statement (the unnamed statement, no parameters).
const pgjdbcGetColumns = `SELECT * FROM (SELECT n.nspname,c.relname,a.attname,a.atttypid,a.attnotnull OR (t.typtype = 'd' AND t.typnotnull) AS attnotnull,a.atttypmod,a.attlen,t.typtypmod,row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum) AS attnum, nullif(a.attidentity, '') as attidentity,nullif(a.attgenerated, '') as attgenerated,pg_catalog.pg_get_expr(def.adbin, def.adrelid) AS adsrc,dsc.description,t.typbasetype,t.typtype  FROM pg_catalog.pg_namespace n  JOIN pg_catalog.pg_class c ON (c.relnamespace = n.oid)  JOIN pg_catalog.pg_attribute a ON (a.attrelid=c.oid)  JOIN pg_catalog.pg_type t ON (a.atttypid = t.oid)  LEFT JOIN pg_catalog.pg_attrdef def ON (a.attrelid=def.adrelid AND a.attnum = def.adnum)  LEFT JOIN pg_catalog.pg_description dsc ON (c.oid=dsc.objoid AND a.attnum = dsc.objsubid)  LEFT JOIN pg_catalog.pg_class dc ON (dc.oid=dsc.classoid AND dc.relname='pg_class')  LEFT JOIN pg_catalog.pg_namespace dn ON (dc.relnamespace=dn.oid AND dn.nspname='pg_catalog')  WHERE c.relkind in ('r','p','v','f','m') and a.attnum > 0 AND NOT a.attisdropped  AND n.nspname LIKE 's%' AND c.relname LIKE '%') c WHERE true  AND attname LIKE '%' ORDER BY nspname,c.relname,attnum `

// psqlQueryStart and psqlQueryEnd frame each query psql -E prints.
const (
	psqlQueryStart = "********* QUERY **********"
	psqlQueryEnd   = "**************************"
)

// parsePsqlEcho returns the queries psql -E printed, in order.
func parsePsqlEcho(out string) []string {
	var queries []string
	var cur []string
	in := false
	for _, line := range strings.Split(out, "\n") {
		switch {
		case !in && line == psqlQueryStart:
			in, cur = true, nil
		case in && line == psqlQueryEnd:
			in = false
			queries = append(queries, strings.TrimSpace(strings.Join(cur, "\n")))
		case in:
			cur = append(cur, line)
		}
	}
	return queries
}

// psqlDescribe makes the statement of psql's \d from the queries psql
// printed for it: the first finds the table, the others name it by the
// OID it returned (oid), quoted, which becomes oidMarker so each server
// is asked about its own table.
func psqlDescribe(label string, queries []string, oid string) (latencyStatement, error) {
	if len(queries) < 2 {
		return latencyStatement{}, fmt.Errorf("psql printed %d queries for %s, want the table look-up and its details", len(queries), label)
	}
	seq := latencySequence{bindOID: true, steps: []latencyStep{{sql: queries[0]}}}
	bound := 0
	for _, q := range queries[1:] {
		r := strings.ReplaceAll(q, "'"+oid+"'", "'"+oidMarker+"'")
		if r != q {
			bound++
		}
		seq.steps = append(seq.steps, latencyStep{sql: r})
	}
	if bound == 0 {
		return latencyStatement{}, errors.New("no query psql printed for " + label + " names the table's OID " + oid)
	}
	return latencyStatement{label: fmt.Sprintf("%s (%d queries)", label, len(queries)), seqs: []latencySequence{seq}}, nil
}

// The tables the other statements read and write, in schema latency.
const (
	latencySmallRows  = 1_000 // latency.small, the prepared point lookup's table
	latencyInsertRows = 100   // latency.inserts before the INSERTs
)

// randomIDs draws the keys of each run from 1..n, the same sequence on
// both servers.
func randomIDs(n, seed int) func(run int) []any {
	return func(run int) []any {
		r := rand.New(rand.NewPCG(uint64(seed), uint64(run+1)))
		return []any{int64(r.IntN(n) + 1)}
	}
}

// insertArgs gives each run's INSERT a fresh id above the table's rows.
func insertArgs(run int) []any {
	id := int64(latencyInsertRows + 2 + run) // the warm-up (run -1) takes latencyInsertRows+1
	return []any{id, "row " + strconv.FormatInt(id, 10)}
}

// insertStatement is the single-row INSERT an ORM sends.
const insertStatement = "INSERT INTO latency.inserts (id, note, at) VALUES ($1, $2, now())"

// coreStatements are the first and last statements of the suite: the
// round trip, a prepared one-row lookup, the key lookup on the large
// table and the INSERT. The large table's lookups come in the middle.
func coreStatements(lookupRows int) (first, last []latencyStatement) {
	small := oneStep(fmt.Sprintf("point lookup by id, %s-row table", sizeLabel(latencySmallRows)),
		"SELECT id, name, price FROM latency.small WHERE id = $1", protoPrepared)
	small.seqs[0].steps[0].args = randomIDs(latencySmallRows, 1)
	lookup := oneStep(fmt.Sprintf("SELECT * WHERE id = $1, %s-row table", sizeLabel(lookupRows)),
		"SELECT * FROM latency.keys WHERE id = $1", protoPrepared)
	lookup.seqs[0].steps[0].args = randomIDs(lookupRows, 2)
	insert := oneStep("single-row INSERT", insertStatement, protoPrepared)
	insert.seqs[0].steps[0].args = insertArgs
	insert.writes = true
	return []latencyStatement{oneStep("SELECT 1", "SELECT 1", protoSimple), small},
		[]latencyStatement{lookup, insert}
}

// latencySetup creates and fills the tables the statements read, the
// same statements on both servers but for the table options: on SQE the
// large table is written in Parquet row groups of 16,384 rows, which a
// lookup skips by their statistics; PostgreSQL gets primary keys
// (latencyPostgresKeys) as an application would declare them. The BI
// queries were captured against public.orders and public.customers,
// which are made here with the columns they name.
func latencySetup(sqe bool, lookupRows int) []string {
	keys := "CREATE TABLE latency.keys (id bigint NOT NULL, category text, price numeric(12,2), qty integer, created date)"
	if sqe {
		keys += ` WITH ("write.parquet.row-group-limit" = 16384)`
	}
	stmts := []string{
		"CREATE SCHEMA latency",
		keys,
		fmt.Sprintf("INSERT INTO latency.keys SELECT g, 'c' || (g %% 20), (g %% 1000) / 10.0, g %% 7, date '2024-01-01' + (g %% 365)::integer FROM generate_series(1, %d) g", lookupRows),
		"CREATE TABLE latency.small (id integer NOT NULL, name text, price numeric(12,2))",
		fmt.Sprintf("INSERT INTO latency.small SELECT g, 'item ' || g, (g %% 100) / 4.0 FROM generate_series(1, %d) g", latencySmallRows),
		"CREATE TABLE latency.inserts (id bigint NOT NULL, note text, at timestamp)",
		fmt.Sprintf("INSERT INTO latency.inserts SELECT g, 'row ' || g, timestamp '2024-01-01' FROM generate_series(1, %d) g", latencyInsertRows),
		"CREATE TABLE public.orders (id bigint NOT NULL, customer_id bigint, amount numeric(12,2), placed timestamp)",
		"INSERT INTO public.orders SELECT g, g % 100, (g % 1000) / 10.0, timestamp '2024-01-01' + g * interval '1 hour' FROM generate_series(1, 1000) g",
		"CREATE TABLE public.customers (id bigint NOT NULL, name text, created_at timestamp)",
		"INSERT INTO public.customers SELECT g, 'customer ' || g, timestamp '2024-01-01' + g * interval '1 day' FROM generate_series(1, 100) g",
	}
	if sqe {
		// PostgreSQL's database comes with schema public; SQE's catalog
		// starts empty.
		stmts = append([]string{"CREATE SCHEMA public"}, stmts...)
	}
	return stmts
}

// latencyPostgresKeys are the primary keys a PostgreSQL application
// would have on the tables looked up by id and written; SQE has no
// indexes. The BI tables and the catalog get none, so that every
// catalog answer is about the same objects on both servers.
func latencyPostgresKeys() []string {
	return []string{
		"ALTER TABLE latency.keys ADD PRIMARY KEY (id)",
		"ALTER TABLE latency.small ADD PRIMARY KEY (id)",
		"ALTER TABLE latency.inserts ADD PRIMARY KEY (id)",
		"VACUUM ANALYZE",
	}
}

// Package pgcatalog emulates PostgreSQL 15's system catalogs (pg_catalog)
// and the SQL-standard information_schema views over SQE's Iceberg
// catalogs, so that psql, JDBC metadata, SQLAlchemy's Inspector and BI
// tools can introspect the server the way they introspect PostgreSQL.
//
// Each relation has PostgreSQL 15's exact columns (names, order, types;
// see shapes_pg15.go and testdata/columns) and a function that computes its
// rows. Nothing is stored: when a query names a relation, Lookup finds it
// and Open binds it to a Source, the caller's view of the server. The rows
// are computed from that Source at Scan time and built into one Arrow
// batch holding the requested columns. Because the Source lists only the
// namespaces and tables gate one lets the caller see, every relation shows
// each caller only its own objects; results are therefore never cached or
// shared between callers.
//
// Access privileges (relacl, nspacl, datacl, aclexplode's input and
// information_schema's table and column privileges) are gate one's grants
// as the caller may see them, in PostgreSQL's aclitem format (acl.go).
//
// Objects SQE has no equivalent for (indexes, constraints, triggers,
// policies, inheritance, ...) are present with their columns and no rows,
// so that client queries against them succeed and find nothing. A few
// relations carry PostgreSQL's built-in rows that clients rely on
// (pg_type for the types SQE has, pg_am, pg_collation, pg_tablespace).
package pgcatalog

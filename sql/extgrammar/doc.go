// Package extgrammar parses SQE's access-control statements: GRANT,
// REVOKE and DENY of privileges on catalogs, schemas, tables and views,
// SHOW GRANTS, SHOW EFFECTIVE GRANTS, CHECK ACCESS, and the role
// statements (CREATE ROLE, DROP ROLE, GRANT and REVOKE of a role).
// PostgreSQL's grammar has no DENY, no views or catalogs as grant
// targets, no USER or ROLE before a grantee and no SHOW GRANTS, and it
// reads some of these texts differently from what SQE means by them, so
// they get a small grammar of their own; every other statement still goes
// to pg_query unchanged.
//
// A statement flows in four steps. Detect: Parse looks at the first one
// or two words and answers ok=false for anything that is not one of these
// statements, so the caller hands the text to pg_query. Tokens:
// pg_query.Scan, PostgreSQL's own lexer, splits the text, so quoting,
// comments, keywords and positions follow PostgreSQL's rules exactly;
// unquoted identifiers fold to lower case, quoted ones keep theirs.
// Recursive descent: one function per grammar rule walks the tokens.
// Typed AST: the result is one of the exported statement structs, whose
// String renders canonical SQL that parses back to the same value.
//
// Statements PostgreSQL also has (GRANT SELECT ON t TO r, CREATE ROLE,
// DROP ROLE, GRANT r TO u) are read here too, so that every privilege
// change takes one code path. Their PostgreSQL forms SQE does not
// implement (grants on functions or sequences, column privileges, role
// options, GRANTED BY, CASCADE, PUBLIC) are refused with 0A000 and
// malformed text with 42601, both with a cursor position, rather than
// being read as something narrower or wider than was written.
//
// Names are checked as the grants backends need them: no part may be
// empty or contain / ? # % \, whitespace or control characters (42602),
// and role names may not be PostgreSQL's reserved ones (42939). Names are
// kept at their full length: PostgreSQL would truncate an identifier over
// 63 bytes, but a grant names a resource in the policy store exactly, and
// a shortened name would point the grant at a different object.
package extgrammar

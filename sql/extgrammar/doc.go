// Package extgrammar parses SQE's access-control statements. Gate one's:
// GRANT, REVOKE and DENY of privileges on catalogs, schemas, tables and
// views, SHOW GRANTS, SHOW EFFECTIVE GRANTS, CHECK ACCESS, and the role
// statements (CREATE ROLE, DROP ROLE, GRANT and REVOKE of a role). Gate
// two's: CREATE [OR REPLACE] POLICY ... ON TABLE or ON TAG (row filters
// and column masks), DROP POLICY, SHOW POLICIES, GRANT SELECT ... ROWS
// WHERE and MASKED WITH, DENY and REVOKE of SELECT (columns) on a table
// (column restrictions), ALTER TABLE ... SET TAGS and UNSET TAGS, and SHOW
// TAGS. Both gates': SHOW ACCESS ON table FOR USER name. And ALTER TABLE
// ... SET SORT ORDER, a table's Iceberg sort order. PostgreSQL's
// grammar has none of these, or reads the text differently from what SQE
// means by it, so they get a small grammar of their own; every other
// statement still goes to pg_query unchanged, among them PostgreSQL's own
// CREATE POLICY name ON table and DROP POLICY name ON table (row
// security), every other ALTER TABLE, and SHOW access (a setting).
//
// A statement flows in four steps. Detect: Parse looks at the first few
// words (up to the table's name and SET TAGS or SET SORT ORDER in ALTER
// TABLE) and answers ok=false for anything that is not one of these
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
// implement (grants on functions or sequences, column privileges other
// than DENY and REVOKE of SELECT, role
// options, GRANTED BY, CASCADE, PUBLIC) are refused with 0A000 and
// malformed text with 42601, both with a cursor position, rather than
// being read as something narrower or wider than was written.
//
// Expressions (a row filter, a column mask, a CUSTOM mask's SQL) are kept
// as their source text, because the policy stores keep them so, after a
// check that PostgreSQL's parser reads the text as one expression; what
// it may refer to is the binder's decision. Tags are string constants
// whose case is kept ('PII' and 'pii' are two tags); ON TAG also takes a
// bare word, as written. Mask types are Ranger's names, which are upper
// case: an unquoted name is upper-cased (mask_null is MASK_NULL) and an
// unquoted component before a colon folds to lower case (hive:), while
// quoted parts are kept as written.
//
// Names are checked as the grants backends need them: no part may be
// empty or contain / ? # % \, whitespace or control characters (42602),
// and role names may not be PostgreSQL's reserved ones (42939). Names are
// kept at their full length: PostgreSQL would truncate an identifier over
// 63 bytes, but a grant names a resource in the policy store exactly, and
// a shortened name would point the grant at a different object. Column
// names, which never leave their table, may hold any character but a
// control character.
package extgrammar

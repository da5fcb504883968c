// Package nodetree is SQE's pg_node_tree: the analysed form of a stored
// expression (a column's DEFAULT) that pg_attrdef.adbin holds, and the
// printer that turns it back into SQL text the way PostgreSQL 15's
// pg_get_expr does.
//
// PostgreSQL stores a default after parse analysis: untyped literals have
// their types, implicit conversions are explicit nodes, and the whole is
// converted to the column's type. pg_get_expr prints that tree, hiding or
// showing each conversion and adding parentheses by fixed rules
// (ruleutils.c), so the text clients show depends on the analysis, not on
// what the user typed: DEFAULT 'x' on a text column prints as 'x'::text,
// DEFAULT 1 + 2.5 as ((1)::numeric + 2.5). Analyze reproduces that
// analysis for the expressions a default may hold (constants, casts,
// operators, function calls, CASE, COALESCE, GREATEST / LEAST, NULLIF,
// ARRAY[...], boolean logic and tests, CURRENT_DATE and its kin); Text
// prints a tree with or without pretty-printing.
//
// A tree is kept as JSON text (Encode, Decode), PostgreSQL's own node
// syntax being no more useful to a client: clients read defaults through
// pg_get_expr, never by parsing adbin.
package nodetree

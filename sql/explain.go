package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
)

// explainText renders a plan for EXPLAIN: with PostgreSQL's cost
// annotations on every line, which BI tools parse, unless the statement
// says COSTS OFF.
func explainText(root planner.Node, options []*pg_query.Node) string {
	if explainCosts(options) {
		return planner.ExplainWithCosts(root)
	}
	return planner.Explain(root)
}

// explainCosts reads the COSTS option: on unless given a false value
// (false, off, 0), as PostgreSQL's boolean option syntax allows.
func explainCosts(options []*pg_query.Node) bool {
	costs := true
	for _, o := range options {
		d := o.GetDefElem()
		if d == nil || d.Defname != "costs" || d.Arg == nil {
			continue
		}
		switch {
		case d.Arg.GetBoolean() != nil:
			costs = d.Arg.GetBoolean().Boolval
		case d.Arg.GetString_() != nil:
			switch strings.ToLower(d.Arg.GetString_().Sval) {
			case "false", "off", "0", "no":
				costs = false
			}
		case d.Arg.GetInteger() != nil:
			costs = d.Arg.GetInteger().Ival != 0
		}
	}
	return costs
}

package sqllogictest

import (
	"fmt"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// SetupKind is what a table-setup statement does.
type SetupKind int

const (
	// NotSetup is any other statement.
	NotSetup SetupKind = iota
	CreateTable
	// CreateTableAs is CREATE TABLE ... AS SELECT: the shim cannot build
	// it, since its rows would have to come from a query.
	CreateTableAs
	CopyFrom
	InsertValues
	DropTable
)

// setupStmt is a classified statement with the parse tree the shim needs.
type setupStmt struct {
	kind   SetupKind
	table  string // unqualified, as PostgreSQL folds it
	create *pg_query.CreateStmt
	copy   *pg_query.CopyStmt
	insert *pg_query.InsertStmt
}

// Classify reports what kind of table-setup statement sql is and the
// table it sets up. A statement pg_query cannot parse, or one that is not
// a single table-setup statement, is NotSetup.
func Classify(sql string) (SetupKind, string) {
	s, err := classify(sql)
	if err != nil {
		return NotSetup, ""
	}
	return s.kind, s.table
}

func classify(sql string) (setupStmt, error) {
	tree, err := pg_query.Parse(sql)
	if err != nil {
		return setupStmt{}, fmt.Errorf("parse %q: %w", sql, err)
	}
	if len(tree.Stmts) != 1 {
		return setupStmt{}, nil
	}
	n := tree.Stmts[0].Stmt
	switch {
	case n.GetCreateStmt() != nil:
		c := n.GetCreateStmt()
		return setupStmt{kind: CreateTable, table: c.GetRelation().GetRelname(), create: c}, nil
	case n.GetCreateTableAsStmt() != nil:
		c := n.GetCreateTableAsStmt()
		if c.GetObjtype() != pg_query.ObjectType_OBJECT_TABLE {
			return setupStmt{}, nil
		}
		return setupStmt{kind: CreateTableAs, table: c.GetInto().GetRel().GetRelname()}, nil
	case n.GetCopyStmt() != nil:
		c := n.GetCopyStmt()
		if !c.GetIsFrom() || c.GetRelation() == nil {
			return setupStmt{}, nil
		}
		return setupStmt{kind: CopyFrom, table: c.GetRelation().GetRelname(), copy: c}, nil
	case n.GetInsertStmt() != nil:
		ins := n.GetInsertStmt()
		sel := ins.GetSelectStmt().GetSelectStmt()
		if sel == nil || len(sel.GetValuesLists()) == 0 {
			return setupStmt{}, nil
		}
		return setupStmt{kind: InsertValues, table: ins.GetRelation().GetRelname(), insert: ins}, nil
	case n.GetDropStmt() != nil:
		d := n.GetDropStmt()
		if d.GetRemoveType() != pg_query.ObjectType_OBJECT_TABLE || len(d.GetObjects()) != 1 {
			return setupStmt{}, nil
		}
		names := d.GetObjects()[0].GetList().GetItems()
		if len(names) == 0 {
			return setupStmt{}, nil
		}
		return setupStmt{kind: DropTable, table: names[len(names)-1].GetString_().GetSval()}, nil
	}
	return setupStmt{}, nil
}

// copyOptions are the parts of a COPY ... FROM the shim and the runner
// honour.
type copyOptions struct {
	file      string
	delimiter string
	header    bool
	csv       bool
}

func copyOptionsOf(c *pg_query.CopyStmt) (copyOptions, error) {
	o := copyOptions{file: c.GetFilename(), delimiter: "\t"}
	for _, n := range c.GetOptions() {
		d := n.GetDefElem()
		arg := d.GetArg()
		switch strings.ToLower(d.GetDefname()) {
		case "format":
			o.csv = strings.EqualFold(defString(arg), "csv")
			if o.csv && o.delimiter == "\t" {
				o.delimiter = ","
			}
		case "delimiter":
			o.delimiter = defString(arg)
		case "header":
			o.header = arg == nil || defBool(arg)
		default:
			return o, fmt.Errorf("COPY option %s is not supported by the runner", d.GetDefname())
		}
	}
	if len(o.delimiter) != 1 {
		return o, fmt.Errorf("COPY delimiter %q must be one character", o.delimiter)
	}
	return o, nil
}

func defString(n *pg_query.Node) string {
	if s := n.GetString_(); s != nil {
		return s.GetSval()
	}
	return ""
}

func defBool(n *pg_query.Node) bool {
	if b := n.GetBoolean(); b != nil {
		return b.GetBoolval()
	}
	if i := n.GetInteger(); i != nil {
		return i.GetIval() != 0
	}
	switch strings.ToLower(defString(n)) {
	case "true", "on", "1":
		return true
	}
	return false
}

// copyFromStdin rewrites a COPY ... FROM '<file>' as COPY ... FROM STDIN
// with the same options, so the client can send the file: the file
// paths in the .slt files are relative to DataFusion's source tree.
func copyFromStdin(c *pg_query.CopyStmt) (string, error) {
	stmt := proto.Clone(c).(*pg_query.CopyStmt)
	stmt.Filename = ""
	out, err := pg_query.Deparse(&pg_query.ParseResult{Stmts: []*pg_query.RawStmt{{
		Stmt: &pg_query.Node{Node: &pg_query.Node_CopyStmt{CopyStmt: stmt}},
	}}})
	if err != nil {
		return "", fmt.Errorf("deparse COPY: %w", err)
	}
	return out, nil
}

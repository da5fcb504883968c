package sqllogictest

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/types"
)

// Column is one column of a table the shim creates.
type Column struct {
	Name    string
	Type    types.T
	NotNull bool
}

// TablePlan is a table the shim writes through the storage API: its
// columns from the CREATE TABLE record and its rows, as PostgreSQL text
// (nil for NULL), from the COPY and INSERT records.
type TablePlan struct {
	Namespace string
	Name      string
	Columns   []Column
	Rows      [][]*string
	// Records are the IDs of the setup records the table stands for.
	Records []string
}

// readFunc returns the contents of a file a COPY names, by base name.
type readFunc func(name string) ([]byte, error)

// buildTablePlan turns a table's setup statements (in file order) into a
// plan. DROP TABLE is allowed only last: each file has its own
// namespace, so nothing after the drop can see the table.
func buildTablePlan(ns string, stmts []setupStmt, ids []string, read readFunc) (*TablePlan, error) {
	if len(stmts) > 0 && stmts[0].kind == CreateTableAs {
		return nil, errors.New("CREATE TABLE AS cannot be replayed: its rows come from a query")
	}
	if len(stmts) == 0 || stmts[0].kind != CreateTable {
		return nil, errors.New("the first setup record is not a CREATE TABLE")
	}
	p := &TablePlan{Namespace: ns, Name: stmts[0].table, Records: ids}
	cols, err := columnsOf(stmts[0].create)
	if err != nil {
		return nil, err
	}
	p.Columns = cols
	for i, s := range stmts[1:] {
		switch s.kind {
		case CopyFrom:
			err = p.addCopy(s.copy, read)
		case InsertValues:
			err = p.addInsert(s.insert)
		case DropTable:
			if i != len(stmts)-2 {
				return nil, errors.New("the table is used again after DROP TABLE")
			}
		default:
			err = fmt.Errorf("setup record %s of kind %d cannot be replayed", ids[i+1], s.kind)
		}
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", p.Name, err)
		}
	}
	return p, nil
}

func columnsOf(c *pg_query.CreateStmt) ([]Column, error) {
	var out []Column
	for _, elt := range c.GetTableElts() {
		def := elt.GetColumnDef()
		if def == nil {
			return nil, fmt.Errorf("table %s: only column definitions are supported", c.GetRelation().GetRelname())
		}
		t, err := columnType(def.GetTypeName())
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", def.GetColname(), err)
		}
		col := Column{Name: def.GetColname(), Type: t, NotNull: def.GetIsNotNull()}
		for _, cn := range def.GetConstraints() {
			if cn.GetConstraint().GetContype() == pg_query.ConstrType_CONSTR_NOTNULL {
				col.NotNull = true
			}
		}
		out = append(out, col)
	}
	return out, nil
}

// columnType maps a column's type as pg_query parses it (pg_catalog
// names for SQL's keyword types) to SQE's PostgreSQL type.
func columnType(tn *pg_query.TypeName) (types.T, error) {
	if tn == nil || len(tn.GetArrayBounds()) > 0 {
		return types.T{}, errors.New("array and missing types are not supported by the shim")
	}
	names := tn.GetNames()
	name := strings.ToLower(names[len(names)-1].GetString_().GetSval())
	var mods []int32
	for _, m := range tn.GetTypmods() {
		mods = append(mods, m.GetAConst().GetIval().GetIval())
	}
	switch name {
	case "bool", "boolean":
		return types.Bool, nil
	case "int2", "smallint":
		return types.Int2, nil
	case "int4", "int", "integer":
		return types.Int4, nil
	case "int8", "bigint":
		return types.Int8, nil
	case "float4", "real":
		return types.Float4, nil
	case "float8":
		return types.Float8, nil
	case "text":
		return types.Text, nil
	case "varchar":
		if len(mods) == 1 {
			return types.VarcharN(mods[0]), nil
		}
		return types.Varchar, nil
	case "date":
		return types.Date, nil
	case "time":
		return types.Time, nil
	case "timestamp":
		return types.Timestamp, nil
	case "timestamptz":
		return types.TimestampTZ, nil
	case "numeric":
		if len(mods) >= 1 {
			scale := int32(0)
			if len(mods) == 2 {
				scale = mods[1]
			}
			return types.Numeric(mods[0], scale), nil
		}
	}
	return types.T{}, fmt.Errorf("type %s is not supported by the shim", name)
}

// addCopy appends the rows of the CSV or text file a COPY names.
func (p *TablePlan) addCopy(c *pg_query.CopyStmt, read readFunc) error {
	if len(c.GetAttlist()) > 0 {
		return errors.New("COPY with a column list is not supported by the shim")
	}
	o, err := copyOptionsOf(c)
	if err != nil {
		return err
	}
	if !o.csv {
		return errors.New("only COPY ... CSV is supported by the shim")
	}
	data, err := read(filepath.Base(o.file))
	if err != nil {
		return fmt.Errorf("COPY FROM %s: %w", o.file, err)
	}
	rows, err := csvRows(data, o, len(p.Columns))
	if err != nil {
		return fmt.Errorf("COPY FROM %s: %w", o.file, err)
	}
	p.Rows = append(p.Rows, rows...)
	return nil
}

// csvRows reads CSV as PostgreSQL's COPY does for the cases the files
// use: an unquoted empty field is NULL. encoding/csv does not tell quoted
// from unquoted, so a quoted empty string also becomes NULL.
func csvRows(data []byte, o copyOptions, width int) ([][]*string, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = rune(o.delimiter[0])
	r.FieldsPerRecord = width
	var out [][]*string
	for first := true; ; first = false {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if first && o.header {
			continue
		}
		row := make([]*string, len(rec))
		for i, v := range rec {
			if v != "" {
				row[i] = &rec[i]
			}
		}
		out = append(out, row)
	}
}

// addInsert appends the rows of INSERT ... VALUES with constant values.
func (p *TablePlan) addInsert(ins *pg_query.InsertStmt) error {
	positions := make([]int, 0, len(p.Columns))
	if len(ins.GetCols()) == 0 {
		for i := range p.Columns {
			positions = append(positions, i)
		}
	} else {
		for _, c := range ins.GetCols() {
			name := c.GetResTarget().GetName()
			idx := -1
			for i, col := range p.Columns {
				if col.Name == name {
					idx = i
				}
			}
			if idx < 0 {
				return fmt.Errorf("INSERT names unknown column %s", name)
			}
			positions = append(positions, idx)
		}
	}
	for _, list := range ins.GetSelectStmt().GetSelectStmt().GetValuesLists() {
		items := list.GetList().GetItems()
		if len(items) != len(positions) {
			return fmt.Errorf("VALUES row has %d values for %d columns", len(items), len(positions))
		}
		row := make([]*string, len(p.Columns))
		for i, item := range items {
			v, err := constantText(item)
			if err != nil {
				return err
			}
			row[positions[i]] = v
		}
		p.Rows = append(p.Rows, row)
	}
	return nil
}

// constantText is a VALUES item as text: a literal, a cast of one (the
// column's type decides), or a negated number.
func constantText(n *pg_query.Node) (*string, error) {
	switch {
	case n.GetAConst() != nil:
		c := n.GetAConst()
		var s string
		switch {
		case c.GetIsnull():
			return nil, nil
		case c.GetIval() != nil:
			s = strconv.FormatInt(int64(c.GetIval().GetIval()), 10)
		case c.GetFval() != nil:
			s = c.GetFval().GetFval()
		case c.GetSval() != nil:
			s = c.GetSval().GetSval()
		case c.GetBoolval() != nil:
			s = strconv.FormatBool(c.GetBoolval().GetBoolval())
		default:
			return nil, errors.New("unsupported constant in VALUES")
		}
		return &s, nil
	case n.GetTypeCast() != nil:
		return constantText(n.GetTypeCast().GetArg())
	case n.GetAExpr() != nil:
		e := n.GetAExpr()
		ops := e.GetName()
		if e.GetLexpr() == nil && len(ops) == 1 && ops[0].GetString_().GetSval() == "-" {
			v, err := constantText(e.GetRexpr())
			if err != nil || v == nil {
				return v, err
			}
			neg := "-" + *v
			return &neg, nil
		}
	}
	return nil, errors.New("VALUES may hold only constants for the shim")
}

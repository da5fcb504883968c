package sql

import (
	"context"
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgcatalog"
	"github.com/sqe-db/sqe/sql/pgcatalog/nodetree"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
	"github.com/sqe-db/sqe/storage"
)

// addDefaults fills the columns' DEFAULT expressions as pg_attrdef.adbin
// holds them: analysed the way PostgreSQL analyses a default when it
// stores it (nodetree), for the column's type and in the session's
// TimeZone. A default PostgreSQL would not store (NULL) is left out.
func (c catalogSource) addDefaults(ctx context.Context, info *pgcatalog.TableInfo, t *storage.Table) {
	props := t.Properties()
	env := c.s.exprEnv(ctx)
	for i, f := range t.Schema().Fields() {
		id := storage.FieldID(f.Metadata.ToMap())
		text, ok := props[storage.ColumnProperty(propDefault, id)]
		if id < 0 || !ok || i >= len(info.Columns) {
			continue
		}
		n := nodetree.Default(text, info.Columns[i].Type, env)
		if n == nil {
			continue
		}
		for len(info.Defaults) < i {
			info.Defaults = append(info.Defaults, "")
		}
		info.Defaults = append(info.Defaults, n.Encode())
	}
}

// exprEnv is what analysing a stored expression needs of the session.
func (s *Session) exprEnv(ctx context.Context) nodetree.Env {
	return nodetree.Env{
		Zone: s.settings.timeZone(),
		TypeOf: func(expr *pg_query.Node) (types.T, error) {
			sel := &pg_query.SelectStmt{
				Op: pg_query.SetOperation_SETOP_NONE, LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT,
				TargetList: []*pg_query.Node{pg_query.MakeResTargetNodeWithVal(expr, -1)},
			}
			plan, err := s.bindSelect(ctx, sel, "", nil)
			if err != nil {
				return types.T{}, fmt.Errorf("bind expression: %w", err)
			}
			cols := plan.Root.Columns()
			if len(cols) != 1 {
				return types.T{}, fmt.Errorf("expression bound to %d columns", len(cols))
			}
			return cols[0].Type, nil
		},
	}
}

// storedExprText is pg_get_expr(expr, relid [, pretty]): the text of an
// expression tree from adbin. relid names the relation whose columns the
// expression may refer to; SQE's stored expressions refer to none.
func storedExprText(a []any, pretty bool) (any, error) {
	if a[0] == nil {
		return nil, nil
	}
	n, err := nodetree.Decode(a[0].(string))
	if err != nil {
		return nil, pgerror.Wrap(err, pgerror.InvalidParameterValue, "invalid expression tree")
	}
	return nodetree.Text(n, pretty), nil
}

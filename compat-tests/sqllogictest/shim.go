package sqllogictest

import (
	"context"
	"fmt"
)

// refusedStates are the SQLSTATEs that send a table to the shim: SQE
// does not support the statement (0A000) or cannot parse it (42601).
var refusedStates = map[string]bool{"0A000": true, "42601": true}

// ShimPlan is what the storage-API shim writes before the server under
// test starts, and which setup records it stands for.
type ShimPlan struct {
	// Namespaces are created for every file, tables or not, so each
	// file's search_path names an existing schema.
	Namespaces []string
	Tables     []*TablePlan
	// NotShimmed are tables the server refused that the shim cannot build
	// either ("file: table: why"); their records run and fail as usual.
	NotShimmed []string
	handled    map[string]bool
}

// Handles reports whether the record with this ID is set up by the shim.
func (p *ShimPlan) Handles(id string) bool { return p != nil && p.handled[id] }

// setupGroup is one table's setup records within a file, in order.
type setupGroup struct {
	table   string
	stmts   []setupStmt
	ids     []string
	refused bool
}

// PlanShim sends every file's table-setup records (those that run on
// engine) to a scratch server, one connection per file with the file's
// namespace on search_path, and plans through the storage API each table
// for which the server refused one of them with 0A000 or 42601. The
// scratch server's data directory must already hold the namespaces
// (Apply of an empty plan) and is thrown away afterwards.
func PlanShim(ctx context.Context, s *Suite, connect Connector, engine string) (*ShimPlan, error) {
	plan := &ShimPlan{Namespaces: s.Namespaces(), handled: map[string]bool{}}
	for _, f := range s.Files {
		groups, err := probeFile(ctx, s, f, connect, engine)
		if err != nil {
			return nil, fmt.Errorf("probe %s: %w", f.Name, err)
		}
		for _, g := range groups {
			if !g.refused {
				continue
			}
			tp, err := buildTablePlan(Namespace(f.Name), g.stmts, g.ids, s.readData)
			if err != nil {
				plan.NotShimmed = append(plan.NotShimmed, fmt.Sprintf("%s: %s: %v", f.Name, g.table, err))
				continue
			}
			plan.Tables = append(plan.Tables, tp)
			for _, id := range g.ids {
				plan.handled[id] = true
			}
		}
	}
	return plan, nil
}

func probeFile(ctx context.Context, s *Suite, f *File, connect Connector, engine string) ([]*setupGroup, error) {
	sess := &session{connect: connect, setup: []string{searchPathStatement(f.Name)}}
	defer sess.close(ctx)
	var groups []*setupGroup
	byTable := map[string]*setupGroup{}
	for _, r := range f.Records {
		if r.Kind != Statement || !r.RunsOn(engine) {
			continue
		}
		st, err := classify(r.SQL)
		if err != nil || st.kind == NotSetup {
			continue
		}
		g := byTable[st.table]
		if g == nil {
			g = &setupGroup{table: st.table}
			byTable[st.table] = g
			groups = append(groups, g)
		}
		g.stmts = append(g.stmts, st)
		g.ids = append(g.ids, r.ID())
		conn, err := sess.get(ctx)
		if err != nil {
			return nil, err
		}
		if refusedStates[sqlState(execStatement(ctx, conn.PgConn(), r.SQL, s.readData))] {
			g.refused = true
		}
	}
	return groups, nil
}

// searchPathStatement puts the file's namespace first on search_path.
func searchPathStatement(fileName string) string {
	return "SET search_path TO " + Namespace(fileName)
}

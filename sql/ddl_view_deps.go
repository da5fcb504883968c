package sql

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// propViewDependsOn lists the tables and views a view's query reads
// directly (JSON list of "catalog.schema.name"), recorded when the view
// is created, so DROP can refuse, or cascade to, the views that depend on
// what it drops, as PostgreSQL's pg_depend does.
const propViewDependsOn = "sqe.depends-on"

// depRecorder resolves names like the session's catalog and records the
// stored tables and views they resolve to.
type depRecorder struct {
	inner *sessionCatalog
	deps  []string
}

var _ planner.ViewCatalog = (*depRecorder)(nil)

func (r *depRecorder) ResolveTable(ctx context.Context, name planner.TableName) (planner.Table, error) {
	t, v, err := r.ResolveRelation(ctx, name)
	if err == nil && v != nil {
		return r.inner.ResolveTable(ctx, name)
	}
	return t, err
}

func (r *depRecorder) ResolveRelation(ctx context.Context, name planner.TableName) (planner.Table, *planner.View, error) {
	t, v, err := r.inner.ResolveRelation(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case v != nil:
		r.add(v.Name)
	case t != nil:
		if a, ok := t.(*tableAdapter); ok {
			r.add(a.QualifiedName())
		}
	}
	return t, v, nil
}

func (r *depRecorder) add(n planner.TableName) {
	key := storage.Ident{Catalog: n.Catalog, Namespace: n.Schema, Table: n.Name}.String()
	if !slices.Contains(r.deps, key) {
		r.deps = append(r.deps, key)
	}
}

// bindViewQuery binds a view's query as the caller, returning the plan
// and the relations it reads directly.
func (s *Session) bindViewQuery(ctx context.Context, sel *pg_query.SelectStmt, query string) (*planner.Plan, []string, error) {
	rec := &depRecorder{inner: &sessionCatalog{s: s}}
	b := planner.NewBinder(ctx, rec, s.security, query)
	b.SetSession(sessionInfo{s})
	p, err := b.BindSelect(sel)
	return p, rec.deps, err
}

// viewDependent is a view that reads a relation being dropped.
type viewDependent struct {
	id storage.Ident
	// on describes what it depends on, as in PostgreSQL's DETAIL lines.
	on string
}

// dependentViews finds, transitively, the views of cat that read any of
// the relations in dropped (each "table"/"view" by ident), other than
// the dropped ones themselves, in the order PostgreSQL reports them.
func (s *Session) dependentViews(ctx context.Context, cat storage.Catalog, dropped map[storage.Ident]string) ([]viewDependent, error) {
	vc, ok := cat.(storage.ViewCatalog)
	if !ok {
		return nil, nil
	}
	nss, err := cat.ListNamespaces(ctx)
	if err != nil {
		return nil, fmt.Errorf("find dependent views: %w", err)
	}
	deps := map[storage.Ident][]string{}
	var all []storage.Ident
	for _, ns := range nss {
		names, err := vc.ListViews(ctx, ns)
		if errors.Is(err, storage.ErrForbidden) || errors.Is(err, storage.ErrNoSuchNamespace) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("find dependent views: %w", err)
		}
		for _, name := range names {
			v, err := vc.LoadView(ctx, ns, name)
			if errors.Is(err, storage.ErrForbidden) || errors.Is(err, storage.ErrNoSuchView) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("find dependent views: %w", err)
			}
			var on []string
			if raw, ok := v.Properties[propViewDependsOn]; ok {
				if err := json.Unmarshal([]byte(raw), &on); err != nil {
					return nil, fmt.Errorf("view %s: bad %s: %w", v.Ident, propViewDependsOn, err)
				}
			}
			deps[v.Ident] = on
			all = append(all, v.Ident)
		}
	}
	kinds := make(map[string]string, len(dropped))
	var queue []storage.Ident
	for id, kind := range dropped {
		kinds[id.String()] = kind
		queue = append(queue, id)
	}
	slices.SortFunc(queue, func(a, b storage.Ident) int { return strings.Compare(a.String(), b.String()) })
	var out []viewDependent
	for len(queue) > 0 {
		target := queue[0]
		queue = queue[1:]
		key := target.String()
		for _, v := range all {
			if _, seen := kinds[v.String()]; seen || !slices.Contains(deps[v], key) {
				continue
			}
			kinds[v.String()] = "view"
			out = append(out, viewDependent{id: v, on: kinds[key] + " " + s.objectName(target)})
			queue = append(queue, v)
		}
	}
	return out, nil
}

// objectName names a relation as PostgreSQL's messages do: qualified
// unless its schema is on the search path.
func (s *Session) objectName(id storage.Ident) string {
	if slices.Contains(s.settings.searchPath(s.identity.User), id.Namespace) {
		return id.Table
	}
	return id.Namespace + "." + id.Table
}

// checkDependents refuses (RESTRICT) or announces (CASCADE) the views
// that depend on the relations a DROP removes; it returns the views to
// drop with them.
func (s *Session) checkDependents(ctx context.Context, cat storage.Catalog, kind string, dropped map[storage.Ident]string, cascade bool) ([]storage.Ident, error) {
	if len(dropped) == 0 {
		return nil, nil
	}
	deps, err := s.dependentViews(ctx, cat, dropped)
	if err != nil || len(deps) == 0 {
		return nil, err
	}
	if !cascade {
		// PostgreSQL names the first object the statement drops.
		var first storage.Ident
		for id := range dropped {
			if first == (storage.Ident{}) || id.String() < first.String() {
				first = id
			}
		}
		lines := make([]string, len(deps))
		for i, d := range deps {
			lines[i] = fmt.Sprintf("view %s depends on %s", s.objectName(d.id), d.on)
		}
		return nil, pgerror.New(codeDependentObjects, "cannot drop %s %s because other objects depend on it", kind, s.objectName(first)).
			WithDetail("%s", strings.Join(lines, "\n")).
			WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	}
	ids := make([]storage.Ident, len(deps))
	lines := make([]string, len(deps))
	for i, d := range deps {
		ids[i] = d.id
		lines[i] = "drop cascades to view " + s.objectName(d.id)
	}
	if len(lines) == 1 {
		s.notice(pgerror.SuccessfulCompletion, "", "%s", lines[0])
	} else {
		s.notice(pgerror.SuccessfulCompletion, strings.Join(lines, "\n"), "drop cascades to %d other objects", len(lines))
	}
	return ids, nil
}

// dropViews drops the views a cascade removes.
func dropViews(ctx context.Context, cat storage.Catalog, ids []storage.Ident) error {
	vc, ok := cat.(storage.ViewCatalog)
	if !ok {
		return nil
	}
	for _, id := range ids {
		if err := vc.DropView(ctx, id.Namespace, id.Table); err != nil && !errors.Is(err, storage.ErrNoSuchView) {
			return err
		}
	}
	return nil
}

// outsideDependents are the views, outside the relations DROP SCHEMA
// removes, that read one of them (transitively): CASCADE drops them too.
func (s *Session) outsideDependents(ctx context.Context, cat storage.Catalog, dropped map[storage.Ident]string) ([]storage.Ident, error) {
	if len(dropped) == 0 {
		return nil, nil
	}
	deps, err := s.dependentViews(ctx, cat, dropped)
	if err != nil {
		return nil, err
	}
	ids := make([]storage.Ident, len(deps))
	for i, d := range deps {
		ids[i] = d.id
	}
	return ids, nil
}

package rangerstore

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// The ops of a ServiceTags import (ServiceTags.OP_*).
const (
	opAddOrUpdate = "add_or_update"
	opDelete      = "delete"
)

// ProjectColumnTags makes Ranger's tag store hold exactly these tags for
// the columns of hive resource {database, table, column} in the
// hive-model service: columns maps a column name to its tags, and a
// column absent from it, or with no tag, keeps none. Spark and Kyuubi
// plugins learn a column's tags there; SQE reads sqe.column-tags.
//
// The change is one import (PUT /service/tags/importservicetags, op
// add_or_update, as tagsync uploads), which Ranger Admin applies in one
// transaction: it creates the tag definitions that do not exist, the
// column resources and their tag-resource maps, and drops the maps of
// every tag no longer listed, so the table's columns never show half of
// the change. A column resource left without tags is then removed by a
// second import (op delete). By then it carries no tag: should that
// import fail, the error says so while the tags are already right, and
// the next projection removes the resource again.
//
// The service's tagged resources are read first (GET
// /service/tags/resources/service/{service}) to find the table's columns
// no longer tagged: a resource added in Ranger's console between that
// read and the import is not replaced. Only resources naming this
// database and table and literal columns are the projection's; other
// tables' resources, the table's own (no column), and columns written
// with wildcards or excludes are left alone. Without Config.ProjectTags
// it sends nothing.
func (s *Store) ProjectColumnTags(ctx context.Context, database, table string, columns map[string][]string) error {
	if !s.cfg.ProjectTags {
		return nil
	}
	want, err := projectable(database, table, columns)
	if err != nil {
		return err
	}
	// Ranger refuses resources of a missing service with a bare 400: ask
	// first, to say so.
	if _, err := s.services(ctx); err != nil {
		return err
	}
	existing, err := s.tableColumnResources(ctx, database, table)
	if err != nil {
		return err
	}
	update, emptied := projection(s.cfg.ServiceName, database, table, want, existing)
	if len(update.ServiceResources) == 0 {
		return nil // nothing tagged, nothing wanted
	}
	// A write whose answer is lost may have landed: flush either way.
	defer s.Flush()
	if err := s.importServiceTags(ctx, update); err != nil {
		return s.userError(err, fmt.Sprintf("write the column tags of %s.%s to Ranger's tag store", database, table))
	}
	if len(emptied.ServiceResources) > 0 {
		if err := s.importServiceTags(ctx, emptied); err != nil {
			return s.userError(err, fmt.Sprintf("remove the untagged columns of %s.%s from Ranger's tag store", database, table))
		}
	}
	return nil
}

// projectable checks the names and returns each column's tags sorted and
// without duplicates. Ranger reads '*' and '?' in a resource value as
// wildcards, with no escape, so such a name would tag other columns too.
func projectable(database, table string, columns map[string][]string) (map[string][]string, error) {
	for _, name := range []string{database, table} {
		if err := checkResourceName(name); err != nil {
			return nil, err
		}
	}
	want := map[string][]string{}
	for column, tags := range columns {
		if err := checkResourceName(column); err != nil {
			return nil, err
		}
		clean := slices.Clone(tags)
		slices.Sort(clean)
		clean = slices.Compact(clean)
		if slices.Contains(clean, "") {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "column %q of %s.%s has an empty tag name", column, database, table)
		}
		if len(clean) > 0 {
			want[column] = clean
		}
	}
	return want, nil
}

// checkResourceName refuses a name Ranger's tag store cannot hold as itself.
func checkResourceName(name string) error {
	switch {
	case name == "":
		return pgerror.New(pgerror.InvalidParameterValue, "cannot project column tags of an empty name to Ranger's tag store")
	case strings.ContainsAny(name, "*?"):
		return pgerror.New(pgerror.FeatureNotSupported, "cannot project the tags of %q to Ranger's tag store: Ranger reads '*' and '?' as wildcards", name).
			WithHint("Rename it, or tag it in Ranger's console.")
	}
	return nil
}

// tableColumnResources reads the hive-model service's tagged resources
// and keeps this table's column resources.
func (s *Store) tableColumnResources(ctx context.Context, database, table string) ([]ranger.ServiceResource, error) {
	var all []ranger.ServiceResource
	_, err := s.client.Do(ctx, http.MethodGet, tagResourcesPath+url.PathEscape(s.cfg.ServiceName), nil, nil, &all)
	if err != nil {
		return nil, s.userError(err, fmt.Sprintf("read the tagged resources of Ranger service %q", s.cfg.ServiceName))
	}
	var out []ranger.ServiceResource
	for _, r := range all {
		if isColumnResourceOf(r, database, table) {
			out = append(out, r)
		}
	}
	return out, nil
}

// isColumnResourceOf reports whether r names literal columns of the
// table, as a projection writes them. Hive resources ignore case.
func isColumnResourceOf(r ranger.ServiceResource, database, table string) bool {
	db, okDB := r.ResourceElements["database"]
	tb, okTable := r.ResourceElements["table"]
	col, okColumn := r.ResourceElements["column"]
	if len(r.ResourceElements) != 3 || !okDB || !okTable || !okColumn {
		return false
	}
	names := func(e ranger.PolicyResource, name string) bool {
		return !e.IsExcludes && len(e.Values) == 1 && strings.EqualFold(e.Values[0], name)
	}
	if !names(db, database) || !names(tb, table) || col.IsExcludes || len(col.Values) == 0 {
		return false
	}
	return !slices.ContainsFunc(col.Values, func(v string) bool { return strings.ContainsAny(v, "*?") })
}

// projection builds the import that gives the table's columns exactly
// want's tags, and the one that then removes the resources it leaves
// without tags. A column keeps its resource when one names exactly it;
// every other existing column resource of the table is listed with no
// tags, which drops its maps.
func projection(service, database, table string, want map[string][]string, existing []ranger.ServiceResource) (update, emptied ranger.ServiceTags) {
	update = ranger.ServiceTags{Op: opAddOrUpdate, ServiceName: service, TagDefinitions: map[string]ranger.TagDef{},
		Tags: map[string]ranger.Tag{}, ServiceResources: []ranger.ServiceResource{}, ResourceToTagIDs: map[string][]int64{}}
	emptied = ranger.ServiceTags{Op: opDelete, ServiceName: service, Tags: map[string]ranger.Tag{},
		ServiceResources: []ranger.ServiceResource{}, ResourceToTagIDs: map[string][]int64{}}

	// Ids in the import are local: they tie tags to resources.
	var tagNames []string
	for _, tags := range want {
		tagNames = append(tagNames, tags...)
	}
	slices.Sort(tagNames)
	for i, name := range slices.Compact(tagNames) {
		update.TagDefinitions[strconv.Itoa(i+1)] = ranger.TagDef{Name: name}
	}
	add := func(r ranger.ServiceResource, tags []string) {
		r.ID, r.ServiceName, r.ResourceSignature = int64(len(update.ServiceResources)+1), service, ""
		update.ServiceResources = append(update.ServiceResources, r)
		// A tag per resource: Ranger's resource-private tag, matched by
		// type on the next import, so an unchanged tag keeps its map.
		ids := []int64{}
		for _, tag := range tags {
			id := int64(len(update.Tags) + 1)
			update.Tags[strconv.FormatInt(id, 10)] = ranger.Tag{Type: tag}
			ids = append(ids, id)
		}
		update.ResourceToTagIDs[strconv.FormatInt(r.ID, 10)] = ids
	}

	kept := map[string]bool{}
	for _, r := range existing {
		col := r.ResourceElements["column"].Values
		if len(col) == 1 && want[col[0]] != nil && !kept[col[0]] {
			kept[col[0]] = true
			add(r, want[col[0]])
			continue
		}
		add(r, nil)
		emptied.ServiceResources = append(emptied.ServiceResources,
			ranger.ServiceResource{GUID: r.GUID, ServiceName: service, ResourceElements: r.ResourceElements})
	}
	columns := make([]string, 0, len(want))
	for column := range want {
		if !kept[column] {
			columns = append(columns, column)
		}
	}
	slices.Sort(columns)
	for _, column := range columns {
		add(ranger.ServiceResource{ResourceElements: map[string]ranger.PolicyResource{
			"database": {Values: []string{database}},
			"table":    {Values: []string{table}},
			"column":   {Values: []string{column}},
		}}, want[column])
	}
	return update, emptied
}

// importServiceTags uploads one ServiceTags; Ranger answers 204.
func (s *Store) importServiceTags(ctx context.Context, st ranger.ServiceTags) error {
	_, err := s.client.Do(ctx, http.MethodPut, importServiceTagsPath, nil, &st, nil)
	return err
}

package sql

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// Column tags follow data: CREATE TABLE AS and INSERT ... SELECT tag each
// column they fill with the tags of the stored columns its values derive
// from (planner.ColumnLineage), so that copying a tagged column does not
// shed the tag masks that protect it. Tags are only ever added to a
// target, never removed.

// carriedTags are, for each output column of a bound query, the tags of
// the source columns its values derive from; nil when no table the query
// reads has tags. Tags that cannot be read, or a query whose lineage is
// unknown while some table it reads has tags, fail the statement: the
// copy would otherwise go out untagged.
func carriedTags(root planner.Node) ([][]string, error) {
	lin := planner.ColumnLineage(root)
	byTable := map[planner.Table]map[int][]string{}
	tagged := false
	for _, t := range lin.Tables {
		tt, ok := t.(planner.TaggedTable)
		if !ok {
			// A catalog relation (pg_catalog, information_schema) has no
			// column tags.
			continue
		}
		tags, err := tt.ColumnTags()
		if err != nil {
			return nil, pgerror.Wrap(fmt.Errorf("read column tags of %s: %w", tableNameString(t), err),
				pgerror.ObjectNotInPrerequisiteState, "the column tags of %s cannot be read, so they cannot be carried to the rows written", tableNameString(t))
		}
		byTable[t] = tags
		tagged = tagged || len(tags) > 0
	}
	if !tagged {
		return nil, nil
	}
	if lin.Unknown != "" {
		return nil, pgerror.Unsupported("cannot tell which source columns the values written come from, so their column tags cannot be carried").
			WithDetail("Its lineage could not be traced past: %s.", lin.Unknown)
	}
	out := make([][]string, len(lin.Columns))
	for i, srcs := range lin.Columns {
		for _, src := range srcs {
			out[i] = append(out[i], byTable[src.Table][src.Column]...)
		}
		slices.Sort(out[i])
		out[i] = slices.Compact(out[i])
	}
	return out, nil
}

func tableNameString(t planner.Table) string {
	n := t.QualifiedName()
	return n.Catalog + "." + n.Schema + "." + n.Name
}

// add unions tags into the entry of the column with field id id, and
// reports whether that added any.
func (d columnTagsDoc) add(id int, name string, tags []string) bool {
	key := strconv.Itoa(id)
	e := d[key]
	had := len(e.Tags)
	e.Tags = slices.Clone(e.Tags)
	for _, tag := range tags {
		if !slices.Contains(e.Tags, tag) {
			e.Tags = append(e.Tags, tag)
		}
	}
	if len(e.Tags) == had {
		return false
	}
	e.Name = name
	d[key] = e
	return true
}

// carry adds tags[i] to field i of fields (by its field id), reporting
// whether that added any tag.
func (d columnTagsDoc) carry(fields []arrow.Field, tags [][]string) (bool, error) {
	if len(tags) != len(fields) {
		return false, pgerror.New(pgerror.InternalError, "%d columns of tags for %d columns", len(tags), len(fields))
	}
	added := false
	for i, f := range fields {
		if len(tags[i]) == 0 {
			continue
		}
		id := storage.FieldID(f.Metadata.ToMap())
		if id < 0 {
			return false, pgerror.New(pgerror.InternalError, "column \"%s\" has no field id to key its tags by", f.Name)
		}
		if d.add(id, f.Name, tags[i]) {
			added = true
		}
	}
	return added, nil
}

// creationTags returns, for CreateTableOptions.FieldIDProperties, the
// column tags property of a new table whose columns (fields, in order)
// are filled with values carrying tags.
func creationTags(fields []arrow.Field, tags [][]string) func(ids map[string]int) (map[string]string, error) {
	return func(ids map[string]int) (map[string]string, error) {
		if len(tags) != len(fields) {
			return nil, pgerror.New(pgerror.InternalError, "%d columns of tags for %d columns", len(tags), len(fields))
		}
		doc := columnTagsDoc{}
		for i, f := range fields {
			id, ok := ids[f.Name]
			if !ok {
				return nil, pgerror.New(pgerror.InternalError, "column \"%s\" has no field id to key its tags by", f.Name)
			}
			doc.add(id, f.Name, tags[i])
		}
		if len(doc) == 0 {
			return nil, nil
		}
		v, err := doc.encode()
		if err != nil {
			return nil, err
		}
		return map[string]string{propColumnTags: v}, nil
	}
}

// carryTagsInto adds to the target's column tags those its new rows
// carry, as a metadata commit of its own before the rows are committed:
// a failure in between leaves a column tagged that received no row, never
// a copied column untagged. Nothing is committed when the tags are
// already there.
//
// Inside a transaction block the rows are staged for COMMIT but a tag
// change would be committed at once, where ROLLBACK could not undo it;
// so a statement that would add tags there is refused.
func (s *Session) carryTagsInto(ctx context.Context, target *insertTarget, source planner.Node) error {
	tags, err := carriedTags(source)
	if err != nil || tags == nil {
		return err
	}
	t := target.adapter.t
	fields := t.Schema().Fields()
	doc, err := readColumnTags(t.Properties())
	if err != nil {
		return pgerror.Wrap(err, pgerror.ObjectNotInPrerequisiteState, "the column tags of %s cannot be read, so new ones cannot be added", target.relname)
	}
	if added, err := doc.carry(fields, tags); err != nil || !added {
		return err
	}
	if s.tx != nil {
		return pgerror.Unsupported("INSERT into %s would add column tags to it, which cannot be done inside a transaction block", target.relname).
			WithDetail("Column tags are table metadata, committed at once; ROLLBACK could not remove them.").
			WithHint("Run the INSERT outside BEGIN ... COMMIT.")
	}
	_, err = t.Alter(ctx, func(a *storage.Alteration) error {
		props, err := a.Properties()
		if err != nil {
			return err
		}
		doc, err := readColumnTags(props)
		if err != nil {
			return pgerror.Wrap(err, pgerror.ObjectNotInPrerequisiteState, "the column tags of %s cannot be read, so new ones cannot be added", target.relname)
		}
		if added, err := doc.carry(fields, tags); err != nil || !added {
			return err
		}
		v, err := doc.encode()
		if err != nil {
			return err
		}
		return a.SetProperties(map[string]string{propColumnTags: v})
	})
	if err != nil {
		return fmt.Errorf("add column tags to %s: %w", target.relname, err)
	}
	return nil
}

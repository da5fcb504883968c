package access

import (
	"fmt"

	"github.com/sqe-db/sqe/storage"
)

// operation is what Polaris checks for one catalog operation: the access
// types (all needed) and the level of the resource they are checked on.
// Polaris authorizes an operation that creates or lists objects on their
// parent (CREATE_TABLE on the namespace, LIST_NAMESPACES on the catalog).
type operation struct {
	level    level
	accesses []string
}

// level is how many parts of the target name the resource keeps.
type level int

const (
	levelCatalog   level = 1
	levelNamespace level = 2
	levelTable     level = 3
)

// operations maps each storage action to what Polaris's Ranger authorizer
// checks for it (polaris-operation-to-ranger-accesstypes.tsv), with one
// deliberate difference: loading a table checks table-data-read, not only
// table-properties-read, because SQE reads the data files with its own
// credentials once it has loaded the metadata, so the load is the only
// read gate there is (spec/001, "The LOAD_TABLE read gate").
func operations() map[storage.Action]operation {
	return map[storage.Action]operation{
		storage.ActionListNamespaces:  {levelCatalog, []string{"namespace-list"}},
		storage.ActionCreateNamespace: {levelCatalog, []string{"namespace-create"}},
		storage.ActionLoadNamespace:   {levelNamespace, []string{"namespace-properties-read"}},
		storage.ActionDropNamespace:   {levelNamespace, []string{"namespace-drop"}},
		storage.ActionListTables:      {levelNamespace, []string{"table-list"}},
		storage.ActionCreateTable:     {levelNamespace, []string{"table-create"}},
		storage.ActionLoadTable:       {levelTable, []string{"table-data-read"}},
		storage.ActionUpdateTable:     {levelTable, []string{"table-data-write"}},
		storage.ActionDropTable:       {levelTable, []string{"table-drop"}},
		storage.ActionRenameTable:     {levelTable, []string{"table-drop"}},
		storage.ActionListViews:       {levelNamespace, []string{"view-list"}},
		storage.ActionCreateView:      {levelNamespace, []string{"view-create"}},
		storage.ActionLoadView:        {levelTable, []string{"view-properties-read"}},
		storage.ActionReplaceView:     {levelTable, []string{"view-properties-write"}},
		storage.ActionDropView:        {levelTable, []string{"view-drop"}},
	}
}

// resourceOf is the Ranger resource of target at the operation's level
// under realm, in the polaris service's resource names.
func resourceOf(realm string, target storage.Ident, op operation) (map[string][]string, error) {
	r := map[string][]string{"root": {realm}, "catalog": {target.Catalog}}
	if op.level >= levelNamespace {
		if target.Namespace == "" {
			return nil, fmt.Errorf("operation on a namespace names none")
		}
		r["namespace"] = []string{target.Namespace}
	}
	if op.level >= levelTable {
		if target.Table == "" {
			return nil, fmt.Errorf("operation on a table names none")
		}
		r["table"] = []string{target.Table}
	}
	return r, nil
}

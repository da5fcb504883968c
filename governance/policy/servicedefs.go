package policy

import (
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/sqe-db/sqe/governance/ranger"
)

// The embedded store's policies are written against Apache Ranger's own
// hive and tag service definitions (copies of the reference files), so
// that they mean the same in SQE as in a Ranger deployment.

//go:embed servicedefs/hive.json
var hiveServiceDefJSON []byte

//go:embed servicedefs/tag.json
var tagServiceDefJSON []byte

// serviceDefs parses the hive service definition and builds the tag
// service definition as Ranger Admin serves it at runtime for hive:
// component-qualified mask types and, since SQE supports them, row
// filters.
func serviceDefs() (hive, tag *ranger.ServiceDef, err error) {
	hive, tag = &ranger.ServiceDef{}, &ranger.ServiceDef{}
	if err := json.Unmarshal(hiveServiceDefJSON, hive); err != nil {
		return nil, nil, fmt.Errorf("hive service definition: %w", err)
	}
	if err := json.Unmarshal(tagServiceDefJSON, tag); err != nil {
		return nil, nil, fmt.Errorf("tag service definition: %w", err)
	}
	return hive, ranger.TagServiceDefFor(hive, tag, true), nil
}

package ranger

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ServiceDef is Ranger's RangerServiceDef: the resources a service has,
// the access types a policy may grant on them, the conditions a policy
// item may carry, and how data masks and row filters are defined.
type ServiceDef struct {
	ID          int64              `json:"id,omitempty"`
	Name        string             `json:"name"`
	DisplayName string             `json:"displayName,omitempty"`
	ImplClass   string             `json:"implClass,omitempty"`
	Label       string             `json:"label,omitempty"`
	Description string             `json:"description,omitempty"`
	GUID        string             `json:"guid,omitempty"`
	Options     StringMap          `json:"options,omitempty"`
	Configs     []ServiceConfigDef `json:"configs,omitempty"`
	Resources   []ResourceDef      `json:"resources"`
	AccessTypes []AccessTypeDef    `json:"accessTypes"`
	// MarkerAccessTypes are the access types standing for a group of the
	// others (_READ, _WRITE, _CREATE, _MANAGE, _ADMIN, _ALL): granting one
	// grants its ImpliedGrants, as Ranger Admin declares them.
	MarkerAccessTypes []AccessTypeDef      `json:"markerAccessTypes,omitempty"`
	PolicyConditions  []PolicyConditionDef `json:"policyConditions,omitempty"`
	ContextEnrichers  []ContextEnricherDef `json:"contextEnrichers,omitempty"`
	DataMaskDef       *DataMaskDef         `json:"dataMaskDef,omitempty"`
	RowFilterDef      *RowFilterDef        `json:"rowFilterDef,omitempty"`
}

// ResourceDef is RangerResourceDef: one level of a resource hierarchy.
// A resource with an empty Parent starts a hierarchy.
type ResourceDef struct {
	ItemID                 int64     `json:"itemId,omitempty"`
	Name                   string    `json:"name"`
	Type                   string    `json:"type,omitempty"`
	Level                  int       `json:"level,omitempty"`
	Parent                 string    `json:"parent,omitempty"`
	Mandatory              bool      `json:"mandatory,omitempty"`
	LookupSupported        bool      `json:"lookupSupported,omitempty"`
	RecursiveSupported     bool      `json:"recursiveSupported,omitempty"`
	ExcludesSupported      bool      `json:"excludesSupported,omitempty"`
	Matcher                string    `json:"matcher,omitempty"`
	MatcherOptions         StringMap `json:"matcherOptions,omitempty"`
	ValidationRegEx        string    `json:"validationRegEx,omitempty"`
	ValidationMessage      string    `json:"validationMessage,omitempty"`
	UIHint                 string    `json:"uiHint,omitempty"`
	Label                  string    `json:"label,omitempty"`
	Description            string    `json:"description,omitempty"`
	AccessTypeRestrictions []string  `json:"accessTypeRestrictions,omitempty"`
}

// AccessTypeDef is RangerAccessTypeDef. Granting an access type also
// grants its ImpliedGrants (one round, as Ranger expands them).
type AccessTypeDef struct {
	ItemID        int64    `json:"itemId,omitempty"`
	Name          string   `json:"name"`
	Label         string   `json:"label,omitempty"`
	Category      string   `json:"category,omitempty"`
	ImpliedGrants []string `json:"impliedGrants,omitempty"`
}

// ServiceConfigDef is RangerServiceConfigDef: a setting of a service
// instance. The evaluator does not read it; it is kept so a downloaded
// definition survives a round trip.
type ServiceConfigDef struct {
	ItemID       int64  `json:"itemId,omitempty"`
	Name         string `json:"name"`
	Type         string `json:"type,omitempty"`
	SubType      string `json:"subType,omitempty"`
	Mandatory    bool   `json:"mandatory,omitempty"`
	DefaultValue string `json:"defaultValue,omitempty"`
	Label        string `json:"label,omitempty"`
	Description  string `json:"description,omitempty"`
}

// PolicyConditionDef is RangerPolicyConditionDef: a condition type a
// policy or policy item may name, and the Ranger class evaluating it.
type PolicyConditionDef struct {
	ItemID           int64     `json:"itemId,omitempty"`
	Name             string    `json:"name"`
	Evaluator        string    `json:"evaluator"`
	EvaluatorOptions StringMap `json:"evaluatorOptions,omitempty"`
	Label            string    `json:"label,omitempty"`
	Description      string    `json:"description,omitempty"`
	UIHint           string    `json:"uiHint,omitempty"`
}

// ContextEnricherDef is RangerContextEnricherDef. The tag enricher's
// options name where a plugin reads resource tags from.
type ContextEnricherDef struct {
	ItemID          int64     `json:"itemId,omitempty"`
	Name            string    `json:"name"`
	Enricher        string    `json:"enricher"`
	EnricherOptions StringMap `json:"enricherOptions,omitempty"`
}

// DataMaskDef is RangerDataMaskDef: the mask types and the resources a
// masking policy (policyType 1) names.
type DataMaskDef struct {
	MaskTypes   []DataMaskTypeDef `json:"maskTypes,omitempty"`
	AccessTypes []AccessTypeDef   `json:"accessTypes,omitempty"`
	Resources   []ResourceDef     `json:"resources,omitempty"`
}

// DataMaskTypeDef is RangerDataMaskTypeDef. Transformer is the expression
// applying the mask, with {col} (and {colType}) standing for the column.
type DataMaskTypeDef struct {
	ItemID          int64     `json:"itemId,omitempty"`
	Name            string    `json:"name"`
	Label           string    `json:"label,omitempty"`
	Description     string    `json:"description,omitempty"`
	Transformer     string    `json:"transformer,omitempty"`
	DataMaskOptions StringMap `json:"dataMaskOptions,omitempty"`
}

// RowFilterDef is RangerRowFilterDef: the resources a row-filter policy
// (policyType 2) names.
type RowFilterDef struct {
	AccessTypes []AccessTypeDef `json:"accessTypes,omitempty"`
	Resources   []ResourceDef   `json:"resources,omitempty"`
}

// StringMap is Ranger's Map<String, String>. Ranger's own files write some
// values as JSON booleans or numbers ("wildCard": false), so those are
// accepted and kept in their JSON spelling.
type StringMap map[string]string

// UnmarshalJSON accepts string, boolean and number values.
func (m *StringMap) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	out := make(StringMap, len(raw))
	for k, v := range raw {
		var s string
		if err := json.Unmarshal(v, &s); err == nil {
			out[k] = s
			continue
		}
		var scalar any
		if err := json.Unmarshal(v, &scalar); err != nil {
			return fmt.Errorf("option %s: %w", k, err)
		}
		switch x := scalar.(type) {
		case bool:
			out[k] = strconv.FormatBool(x)
		case float64, nil:
			out[k] = string(v)
		default:
			return fmt.Errorf("option %s: want a string, boolean or number, got %s", k, v)
		}
	}
	*m = out
	return nil
}

// boolOption reads a boolean option the way Ranger does (Java's
// Boolean.parseBoolean): absent or empty means the default, otherwise only
// "true", in any case, is true.
func (m StringMap) boolOption(name string, def bool) bool {
	v, ok := m[name]
	if !ok || v == "" {
		return def
	}
	return strings.EqualFold(v, "true")
}

// charOption reads a one-character option the way Ranger does
// (ServiceDefUtil.getCharOption): the first character, or the default
// when the option is absent or empty.
func (m StringMap) charOption(name string, def byte) byte {
	if v := m[name]; v != "" {
		return v[0]
	}
	return def
}

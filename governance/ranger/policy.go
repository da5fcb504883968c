package ranger

// Policy types (RangerPolicy.policyType).
const (
	PolicyTypeAccess    = 0
	PolicyTypeDataMask  = 1
	PolicyTypeRowFilter = 2
)

// Policy priorities (RangerPolicy.policyPriority): an OVERRIDE policy's
// decision stands over every NORMAL one.
const (
	PriorityNormal   = 0
	PriorityOverride = 1
)

// Policy is Ranger's RangerPolicy. IsEnabled and IsAuditEnabled are
// pointers because Ranger treats an absent value as true.
type Policy struct {
	ID                   int64                       `json:"id,omitempty"`
	GUID                 string                      `json:"guid,omitempty"`
	IsEnabled            *bool                       `json:"isEnabled,omitempty"`
	Version              int64                       `json:"version,omitempty"`
	Service              string                      `json:"service,omitempty"`
	Name                 string                      `json:"name"`
	PolicyType           int                         `json:"policyType"`
	PolicyPriority       int                         `json:"policyPriority"`
	Description          string                      `json:"description,omitempty"`
	IsAuditEnabled       *bool                       `json:"isAuditEnabled,omitempty"`
	Resources            map[string]PolicyResource   `json:"resources"`
	AdditionalResources  []map[string]PolicyResource `json:"additionalResources,omitempty"`
	Conditions           []PolicyItemCondition       `json:"conditions,omitempty"`
	PolicyItems          []PolicyItem                `json:"policyItems,omitempty"`
	DenyPolicyItems      []PolicyItem                `json:"denyPolicyItems,omitempty"`
	AllowExceptions      []PolicyItem                `json:"allowExceptions,omitempty"`
	DenyExceptions       []PolicyItem                `json:"denyExceptions,omitempty"`
	DataMaskPolicyItems  []DataMaskPolicyItem        `json:"dataMaskPolicyItems,omitempty"`
	RowFilterPolicyItems []RowFilterPolicyItem       `json:"rowFilterPolicyItems,omitempty"`
	ServiceType          string                      `json:"serviceType,omitempty"`
	Options              map[string]any              `json:"options,omitempty"`
	ValiditySchedules    []ValiditySchedule          `json:"validitySchedules,omitempty"`
	PolicyLabels         []string                    `json:"policyLabels,omitempty"`
	ZoneName             string                      `json:"zoneName,omitempty"`
	IsDenyAllElse        bool                        `json:"isDenyAllElse,omitempty"`
}

// Enabled reports whether the policy takes part in evaluation.
func (p *Policy) Enabled() bool { return p.IsEnabled == nil || *p.IsEnabled }

// AuditEnabled reports whether a request the policy matches is audited.
func (p *Policy) AuditEnabled() bool { return p.IsAuditEnabled == nil || *p.IsAuditEnabled }

// PolicyResource is RangerPolicyResource: the values one resource level
// matches, inverted when IsExcludes is set.
type PolicyResource struct {
	Values      []string `json:"values"`
	IsExcludes  bool     `json:"isExcludes,omitempty"`
	IsRecursive bool     `json:"isRecursive,omitempty"`
}

// PolicyItem is RangerPolicyItem: who (users, groups, roles), what
// (accesses) and under which conditions.
type PolicyItem struct {
	Accesses      []PolicyItemAccess    `json:"accesses"`
	Users         []string              `json:"users,omitempty"`
	Groups        []string              `json:"groups,omitempty"`
	Roles         []string              `json:"roles,omitempty"`
	Conditions    []PolicyItemCondition `json:"conditions,omitempty"`
	DelegateAdmin bool                  `json:"delegateAdmin,omitempty"`
}

// PolicyItemAccess is RangerPolicyItemAccess; an absent IsAllowed is true.
type PolicyItemAccess struct {
	Type      string `json:"type"`
	IsAllowed *bool  `json:"isAllowed,omitempty"`
}

// Allowed reports whether the access is granted (Ranger's default is yes).
func (a PolicyItemAccess) Allowed() bool { return a.IsAllowed == nil || *a.IsAllowed }

// PolicyItemCondition is RangerPolicyItemCondition: a condition type named
// in the service definition and its values.
type PolicyItemCondition struct {
	Type   string   `json:"type"`
	Values []string `json:"values"`
}

// DataMaskPolicyItem is RangerDataMaskPolicyItem.
type DataMaskPolicyItem struct {
	PolicyItem
	DataMaskInfo DataMaskInfo `json:"dataMaskInfo"`
}

// DataMaskInfo is RangerPolicyItemDataMaskInfo.
type DataMaskInfo struct {
	DataMaskType  string `json:"dataMaskType"`
	ConditionExpr string `json:"conditionExpr,omitempty"`
	ValueExpr     string `json:"valueExpr,omitempty"`
}

// RowFilterPolicyItem is RangerRowFilterPolicyItem.
type RowFilterPolicyItem struct {
	PolicyItem
	RowFilterInfo RowFilterInfo `json:"rowFilterInfo"`
}

// RowFilterInfo is RangerPolicyItemRowFilterInfo.
type RowFilterInfo struct {
	FilterExpr string `json:"filterExpr"`
}

// ValiditySchedule is RangerValiditySchedule: the window, written
// "yyyy/MM/dd HH:mm:ss" in TimeZone, in which a policy applies, and
// within it the recurring intervals, if any, in which it does.
type ValiditySchedule struct {
	StartTime   string               `json:"startTime,omitempty"`
	EndTime     string               `json:"endTime,omitempty"`
	TimeZone    string               `json:"timeZone,omitempty"`
	Recurrences []ValidityRecurrence `json:"recurrences,omitempty"`
}

// ValidityRecurrence is RangerValidityRecurrence: an interval that starts
// at every time the schedule's fields match.
type ValidityRecurrence struct {
	Schedule RecurrenceSchedule `json:"schedule"`
	Interval ValidityInterval   `json:"interval"`
}

// RecurrenceSchedule is RangerValidityRecurrence.RecurrenceSchedule: each
// field a comma-separated list of values, ranges ("1-5") or "*"; month
// counts from 1 and dayOfWeek from 1 = Sunday, as Ranger writes them.
type RecurrenceSchedule struct {
	Minute     string `json:"minute,omitempty"`
	Hour       string `json:"hour,omitempty"`
	DayOfMonth string `json:"dayOfMonth,omitempty"`
	DayOfWeek  string `json:"dayOfWeek,omitempty"`
	Month      string `json:"month,omitempty"`
	Year       string `json:"year,omitempty"`
}

// ValidityInterval is RangerValidityRecurrence.ValidityInterval: how long
// each recurrence lasts.
type ValidityInterval struct {
	Days    int `json:"days,omitempty"`
	Hours   int `json:"hours,omitempty"`
	Minutes int `json:"minutes,omitempty"`
}

// Conditional reports whether any enabled policy's decision can depend on
// more than the request's resource, access and principal: a policy or
// item condition (time, client address, script) or a validity schedule.
// Decisions under policies that are not conditional may be remembered
// for as long as the policies, the principal and the resource stay the
// same.
func Conditional(policies []Policy) bool {
	for i := range policies {
		p := &policies[i]
		if !p.Enabled() {
			continue
		}
		if len(p.Conditions) > 0 || len(p.ValiditySchedules) > 0 {
			return true
		}
		for _, items := range [][]PolicyItem{p.PolicyItems, p.DenyPolicyItems, p.AllowExceptions, p.DenyExceptions} {
			for _, it := range items {
				if len(it.Conditions) > 0 {
					return true
				}
			}
		}
		for _, it := range p.DataMaskPolicyItems {
			if len(it.Conditions) > 0 {
				return true
			}
		}
		for _, it := range p.RowFilterPolicyItems {
			if len(it.Conditions) > 0 {
				return true
			}
		}
	}
	return false
}

package ranger

import (
	"encoding/json"
	"fmt"
	"time"
)

// AnyAccess is the access type of a request that asks whether the caller
// has any access at all (Ranger's "_any"; an empty access type means the
// same). AdminAccess asks for delegated administration.
const (
	AnyAccess   = "_any"
	AdminAccess = "_admin"
)

// Resource is the resource a request names: a value (usually one) per
// resource level, e.g. {"database": {"db1"}, "table": {"t1"}}.
type Resource map[string][]string

// Request is one access, data-mask or row-filter question.
type Request struct {
	Resource Resource
	// AccessType is the access asked for; "" or AnyAccess means any.
	AccessType string
	// AccessTypes, when set, asks for several access types at once: every
	// one must be allowed, or at least one when AnyOf is set. Resource
	// matching still follows AccessType.
	AccessTypes []string
	AnyOf       bool

	User   string
	Groups []string
	// Roles the caller holds already (for example from its token); the
	// evaluator adds the roles its role set gives the user and groups.
	Roles []string
	// Owner is the owner of the resource, for items granting {OWNER}.
	Owner string
	// UserAttributes resolve ${{USER.attr}} in masks and row filters and
	// USER.attr in conditions.
	UserAttributes map[string]string

	// Tags of the resource. When TagsGiven is false the evaluator looks
	// the tags up in its tag store (Config.ServiceTags).
	Tags      []ResourceTag
	TagsGiven bool

	// RequestedResources are every resource the statement touches, for
	// the accessed-together conditions.
	RequestedResources []Resource
	// AccessTime is when the access happens; zero means now.
	AccessTime time.Time
	// ClientIPAddress is the client's address, for IP-range conditions,
	// geolocation and scripts; a condition that needs it fails closed
	// when it is empty. RemoteIPAddress and ForwardedAddresses are shown
	// to scripts as Ranger shows them.
	ClientIPAddress    string
	RemoteIPAddress    string
	ForwardedAddresses []string
	// RequestData, ClientType, ClusterName and ClusterType are shown,
	// with Action, to condition scripts (ctx.getAction() and so on).
	RequestData string
	ClientType  string
	ClusterName string
	ClusterType string
	// Context holds the request's context attributes, which
	// context-attribute conditions and ctx.getRequestContextAttribute
	// read; the evaluator's context enrichers (geolocation) add theirs.
	Context map[string]string
	// GroupAttributes are the attributes of the caller's groups, by
	// group, for scripts (UG, UGA, ctx.ugAttr).
	GroupAttributes map[string]map[string]string
	// Action is what the statement does ("METADATA OPERATION", "QUERY"),
	// which audit filters may name.
	Action string
	// ElementMatchingScopes widens how the values of some levels match
	// (Ranger's resourceElementMatchingScopes); a level not listed is
	// matched as itself.
	ElementMatchingScopes map[string]ElementMatchingScope
}

// ElementMatchingScope is Ranger's ResourceElementMatchingScope.
type ElementMatchingScope int

const (
	// ScopeSelf matches the requested value itself.
	ScopeSelf ElementMatchingScope = iota
	// ScopeSelfOrPrefix also matches a policy value the requested value
	// is the start of ("may the caller reach anything below this
	// prefix").
	ScopeSelfOrPrefix
)

// prefixMatched reports whether a level is matched with
// ScopeSelfOrPrefix; rq may be nil.
func (r *Request) prefixMatched(level string) bool {
	return r != nil && r.ElementMatchingScopes[level] == ScopeSelfOrPrefix
}

// isAny reports whether resource matching follows the any-access rules.
func (r *Request) isAny() bool {
	return len(r.AccessTypes) == 0 && (r.AccessType == "" || r.AccessType == AnyAccess)
}

// MatchType says how a resource (of a policy or of a tagged resource)
// relates to the requested resource.
type MatchType int

// Match types, as Ranger's RangerPolicyResourceMatcher.MatchType.
const (
	MatchNone MatchType = iota
	// MatchSelf: the same resource.
	MatchSelf
	// MatchSelfAndAllDescendants: the request names fewer levels and every
	// remaining level of the policy is "*".
	MatchSelfAndAllDescendants
	// MatchAncestor: the policy (or tag) is on an ancestor of the request.
	MatchAncestor
	// MatchDescendant: the policy (or tag) is on a descendant.
	MatchDescendant
)

var matchTypeNames = [...]string{"NONE", "SELF", "SELF_AND_ALL_DESCENDANTS", "ANCESTOR", "DESCENDANT"}

func (m MatchType) String() string {
	if int(m) < len(matchTypeNames) {
		return matchTypeNames[m]
	}
	return fmt.Sprintf("MatchType(%d)", int(m))
}

// UnmarshalJSON reads Ranger's spelling; an empty value is SELF.
func (m *MatchType) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == "" {
		*m = MatchSelf
		return nil
	}
	for i, n := range matchTypeNames {
		if n == s {
			*m = MatchType(i)
			return nil
		}
	}
	return fmt.Errorf("unknown match type %q", s)
}

// ResourceTag is a tag found on the requested resource (Ranger's
// RangerTagForEval): its type, attributes, and where it sits relative to
// the request (SELF when unset).
type ResourceTag struct {
	Type       string            `json:"type"`
	Attributes map[string]string `json:"attributes,omitempty"`
	MatchType  MatchType         `json:"matchType,omitempty"`
}

// AccessResult is the answer to IsAccessAllowed.
type AccessResult struct {
	Allowed bool
	// Audited is true when a matching policy asks for the access to be
	// audited, whatever the decision.
	Audited bool
	// PolicyID is the policy that decided, -1 when none did (the request
	// is then denied, unless the caller is a super user).
	PolicyID int64
	// ByTag is true when the deciding policy is a tag policy.
	ByTag bool
}

// DataMaskResult is the answer to EvalDataMask. An empty MaskType (and
// PolicyID -1) means no mask applies.
type DataMaskResult struct {
	MaskType      string
	ValueExpr     string
	ConditionExpr string
	// Transformer is the service definition's expression for MaskType,
	// with {col} standing for the column; empty for types without one
	// (MASK_NULL, MASK_NONE, CUSTOM).
	Transformer string
	PolicyID    int64
	ByTag       bool
	// Tag is the tag through which a tag policy applied (the column's
	// tag its resource matched); empty for a resource policy.
	Tag string
}

// RowFilterResult is the answer to EvalRowFilter, and one of the answers
// to EvalRowFilters. PolicyID -1 (and an empty FilterExpr) means no filter
// applies; a policy's item may also have an empty FilterExpr, which admits
// every row.
type RowFilterResult struct {
	FilterExpr string
	PolicyID   int64
	// ByTag is true when the filter comes from a tag policy.
	ByTag bool
	// Tag is the tag through which the tag policy applied; empty for a
	// resource policy.
	Tag string
}

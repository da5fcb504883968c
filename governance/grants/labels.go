package grants

import "strings"

// Provenance labels on a policy record which grantee holds which privilege
// there, and who granted. REVOKE reads them to hold back access types that
// another privilege of the same grantee still needs: a policy has one
// item per grantee, so INSERT's access types include all of SELECT's, and
// without the labels revoking INSERT would take SELECT away too.
//
// The format is shared with other tools that write to the same Ranger
// service, so it must not change: "chm:<USER|ROLE>:<name>:<PRIVILEGE>" and
// "chm-grantor:<name>". A privilege granted on a view is written
// "<PRIVILEGE> ON VIEW": views and tables share the table slot, and
// ALL TABLES and ALL VIEWS IN SCHEMA the very same policy, where a bare
// SELECT could not say whose access types it holds back.
const (
	grantLabelPrefix   = "chm:"
	grantorLabelPrefix = "chm-grantor:"
	onViewSuffix       = " ON VIEW"
)

// grantLabel is the label saying that the grantee holds the privilege on
// an object of the given kind.
func grantLabel(g Grantee, privilegeName string, kind ObjectKind) string {
	return grantLabelPrefix + string(g.Kind) + ":" + g.Name + ":" + labelPrivilege(privilegeName, kind)
}

// labelPrivilege is the privilege part of a grant label.
func labelPrivilege(privilegeName string, kind ObjectKind) string {
	if kind == ObjectView {
		return privilegeName + onViewSuffix
	}
	return privilegeName
}

// grantorLabel is the label naming the caller who granted. Policies
// written through Ranger's policy API record the REST user, not the
// caller, as their creator.
func grantorLabel(grantor string) string { return grantorLabelPrefix + grantor }

// parseGrantLabel splits a grant label into grantee, privilege name and
// whether the privilege was granted on a view. The privilege is after the
// last colon, since no privilege name holds one; the grantee's name may.
func parseGrantLabel(label string) (g Grantee, privilegeName string, onView bool, ok bool) {
	rest, ok := strings.CutPrefix(label, grantLabelPrefix)
	if !ok {
		return Grantee{}, "", false, false
	}
	kind, rest, ok := strings.Cut(rest, ":")
	if !ok {
		return Grantee{}, "", false, false
	}
	i := strings.LastIndex(rest, ":")
	if i <= 0 || i == len(rest)-1 {
		return Grantee{}, "", false, false
	}
	g = Grantee{Kind: GranteeKind(kind), Name: rest[:i]}
	if g.Kind != GranteeUser && g.Kind != GranteeRole {
		return Grantee{}, "", false, false
	}
	privilegeName, onView = strings.CutSuffix(rest[i+1:], onViewSuffix)
	return g, privilegeName, onView, true
}

package rangerstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/governance/rangerrest"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// versions are what a snapshot was built from: Ranger's policy version of
// the service and of its tag service, and the role version; -1 is
// unknown.
type versions struct {
	policies, tagPolicies, roles int64
}

var unknownVersions = versions{policies: -1, tagPolicies: -1, roles: -1}

// download is one refresh's answers; a part answered 304 is nil.
type download struct {
	policies *policyDownload
	roles    *ranger.Roles
}

// policyDownload is the plugin policy download with the part SQE refuses
// to ignore: a security zone's policies replace the service's for the
// zone's resources, and SQE does not evaluate zones.
type policyDownload struct {
	ranger.ServicePolicies
	SecurityZones map[string]json.RawMessage `json:"securityZones,omitempty"`
}

// fetch asks Ranger Admin for the policies and the roles changed since
// known, as a plugin does.
func (s *Store) fetch(ctx context.Context, known versions, activated time.Time) (download, error) {
	var d download
	lastActivation := "0"
	if !activated.IsZero() {
		lastActivation = strconv.FormatInt(activated.UnixMilli(), 10)
	}
	service := url.PathEscape(s.cfg.ServiceName)

	q := url.Values{
		"lastKnownVersion":     {strconv.FormatInt(known.policies, 10)},
		"lastActivationTime":   {lastActivation},
		"pluginId":             {s.cfg.PluginID},
		"supportsPolicyDeltas": {"false"},
	}
	var pd policyDownload
	status, err := s.client.Do(ctx, http.MethodGet, policiesDownloadPath+service, q, nil, &pd)
	if err != nil {
		return d, s.downloadError(err, "policies")
	}
	if status != http.StatusNotModified {
		d.policies = &pd
	}

	q = url.Values{
		"lastKnownRoleVersion": {strconv.FormatInt(known.roles, 10)},
		"lastActivationTime":   {lastActivation},
		"pluginId":             {s.cfg.PluginID},
	}
	var roles ranger.Roles
	status, err = s.client.Do(ctx, http.MethodGet, rolesDownloadPath+service, q, nil, &roles)
	if err != nil {
		return d, s.downloadError(err, "roles")
	}
	if status != http.StatusNotModified {
		d.roles = &roles
	}
	return d, nil
}

// downloadError says what failed. Ranger answers a download for a
// service it does not have with 400 "Service:<name> not found".
func (s *Store) downloadError(err error, what string) error {
	var he *rangerrest.HTTPError
	if errors.As(err, &he) && (he.Status == http.StatusNotFound ||
		he.Status == http.StatusBadRequest && strings.Contains(he.Message, "Service:"+s.cfg.ServiceName+" not found")) {
		return noSuchService(err, s.cfg.ServiceName)
	}
	return s.userError(err, fmt.Sprintf("download the %s of Ranger service %q", what, s.cfg.ServiceName))
}

// noSuchService is the error for a configured service Ranger lacks.
func noSuchService(err error, name string) error {
	return pgerror.Wrap(err, pgerror.UndefinedObject, "Ranger Admin has no service %q", name).
		WithHint("Check [policy.ranger] service-name: it names the hive-model service holding row-filter and mask policies.")
}

// checkDownload refuses a download the store cannot turn into a snapshot
// without dropping policies.
func (s *Store) checkDownload(pd *policyDownload) error {
	if pd.ServiceDef == nil {
		return pgerror.New(pgerror.InternalError, "the policy download of Ranger service %q carries no service definition", s.cfg.ServiceName)
	}
	if len(pd.SecurityZones) > 0 {
		return pgerror.New(pgerror.FeatureNotSupported, "Ranger service %q uses security zones, which SQE does not evaluate", s.cfg.ServiceName).
			WithHint("Move the service's resources out of security zones, or use a service without zones for SQE.")
	}
	return nil
}

// versionOf is a download's policy version, -1 when it carries none.
func versionOf(v *int64) int64 {
	if v == nil {
		return -1
	}
	return *v
}

// gateTwoPolicies keeps what gate two evaluates: row-filter and
// data-mask policies, and access policies, whose explicit denials of a
// column restrict it (gate one, who may open a table, is decided
// elsewhere). Audit-only policies are left out.
func gateTwoPolicies(policies []ranger.Policy) []ranger.Policy {
	var out []ranger.Policy
	for _, p := range policies {
		switch p.PolicyType {
		case ranger.PolicyTypeAccess, ranger.PolicyTypeDataMask, ranger.PolicyTypeRowFilter:
			out = append(out, p)
		}
	}
	return out
}

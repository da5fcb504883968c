package ranger

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Ranger's policy-engine test files (agents-common/src/test/resources/
// policyengine) and how its TestPolicyEngine harness reads them.

type policyEngineFile struct {
	ServiceName   string                      `json:"serviceName"`
	ServiceDef    *ServiceDef                 `json:"serviceDef"`
	Policies      []Policy                    `json:"policies"`
	TagPolicyInfo *tagPolicyInfo              `json:"tagPolicyInfo"`
	UserRoles     map[string][]string         `json:"userRoles"`
	GroupRoles    map[string][]string         `json:"groupRoles"`
	RoleRoles     map[string][]string         `json:"roleRoles"`
	SuperUsers    []string                    `json:"superUsers"`
	SuperGroups   []string                    `json:"superGroups"`
	ServiceConfig StringMap                   `json:"serviceConfig"`
	SecurityZones map[string]SecurityZoneInfo `json:"securityZones"`
	Tests         []policyEngineTest          `json:"tests"`
	// UpdatedPolicies are deltas applied to the running engine, after
	// which UpdatedTests run.
	UpdatedPolicies *struct {
		PolicyDeltas  []PolicyDelta               `json:"policyDeltas"`
		SecurityZones map[string]SecurityZoneInfo `json:"securityZones"`
	} `json:"updatedPolicies"`
	UpdatedTests []policyEngineTest `json:"updatedTests"`
}

type tagPolicyInfo struct {
	ServiceName   string      `json:"serviceName"`
	ServiceDef    *ServiceDef `json:"serviceDef"`
	TagPolicies   []Policy    `json:"tagPolicies"`
	ServiceConfig StringMap   `json:"serviceConfig"`
}

type policyEngineTest struct {
	Name            string                       `json:"name"`
	Request         testRequest                  `json:"request"`
	Result          *testAccessResult            `json:"result"`
	DataMaskResult  *testInfoResult              `json:"dataMaskResult"`
	RowFilterResult *testInfoResult              `json:"rowFilterResult"`
	UserAttributes  map[string]map[string]string `json:"userAttributes"`
}

type testRequest struct {
	Resource struct {
		Elements  map[string]stringOrList `json:"elements"`
		OwnerUser string                  `json:"ownerUser"`
	} `json:"resource"`
	// ResourceElementMatchingScopes widen some levels' matching
	// ("SELF_OR_PREFIX").
	ResourceElementMatchingScopes map[string]string          `json:"resourceElementMatchingScopes"`
	AccessType                    string                     `json:"accessType"`
	User                          string                     `json:"user"`
	UserGroups                    []string                   `json:"userGroups"`
	UserRoles                     []string                   `json:"userRoles"`
	AccessTime                    string                     `json:"accessTime"`
	Context                       map[string]json.RawMessage `json:"context"`
	ClientIPAddress               string                     `json:"clientIPAddress"`
	RemoteIPAddress               string                     `json:"remoteIPAddress"`
	ForwardedAddresses            []string                   `json:"forwardedAddresses"`
	Action                        string                     `json:"action"`
	RequestData                   string                     `json:"requestData"`
	ClientType                    string                     `json:"clientType"`
	ClusterName                   string                     `json:"clusterName"`
	ClusterType                   string                     `json:"clusterType"`
}

type testAccessResult struct {
	IsAllowed bool `json:"isAllowed"`
	IsAudited bool `json:"isAudited"`
}

// testInfoResult is an expected mask or row filter: Ranger's result keeps
// them in additionalInfo (maskType, maskCondition, maskedValue, filterExpr).
// Many files write "maskValue", a key Ranger does not read: their expected
// maskedValue is null, and so it is here.
type testInfoResult struct {
	AdditionalInfo map[string]*string `json:"additionalInfo"`
	PolicyID       *int64             `json:"policyId"`
}

func (r *testInfoResult) info(key string) string {
	if v := r.AdditionalInfo[key]; v != nil {
		return *v
	}
	return ""
}

func (r *testInfoResult) policyID() int64 {
	if r.PolicyID == nil {
		return -1
	}
	return *r.PolicyID
}

// stringOrList is a resource element: one value or a list of values.
type stringOrList []string

func (s *stringOrList) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*s = stringOrList{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*s = many
	return nil
}

func runPolicyEngineFile(root, path string, data []byte, fr *FileReport) {
	var f policyEngineFile
	if err := json.Unmarshal(data, &f); err != nil {
		fr.skip("#0 (file)", "cannot read the file: %v", err)
		return
	}
	cfg, err := policyEngineConfig(root, path, &f)
	runPolicyEngineTests(cfg, err, f.Tests, 0, fr)
	if f.UpdatedPolicies == nil {
		return
	}
	if err == nil {
		cfg, err = updatedConfig(cfg, f.UpdatedPolicies.PolicyDeltas, f.UpdatedPolicies.SecurityZones)
	}
	runPolicyEngineTests(cfg, err, f.UpdatedTests, len(f.Tests), fr)
}

// runPolicyEngineTests runs tests against the evaluator cfg describes
// (or, when it cannot be built, fails them); first numbers the first.
func runPolicyEngineTests(cfg Config, cfgErr error, tests []policyEngineTest, first int, fr *FileReport) {
	var ev *Evaluator
	err := cfgErr
	if err == nil {
		ev, err = New(cfg)
	}
	for i := range tests {
		t := &tests[i]
		label := testLabel(first+i, t.Name)
		if err != nil {
			fr.fail(label, "evaluator not built: %v", err)
			continue
		}
		req, err := t.request()
		if err != nil {
			fr.skip(label, "request: %v", err)
			continue
		}
		if problems := checkPolicyEngineTest(ev, t, req); len(problems) > 0 {
			fr.fail(label, "%s", strings.Join(problems, "; "))
			continue
		}
		fr.pass()
	}
}

// updatedConfig applies a delta download to a configuration, as the
// harness's RangerPolicyEngineImpl.getPolicyEngine(old, deltas) does: the
// service's and the tag service's deltas to their policies, each zone's
// deltas to the zone's policies, and the zones' resources replaced.
func updatedConfig(cfg Config, deltas []PolicyDelta, zones map[string]SecurityZoneInfo) (Config, error) {
	var err error
	if cfg.Policies, err = ApplyPolicyDeltas(cfg.Policies, deltas, cfg.ServiceDef.Name); err != nil {
		return cfg, err
	}
	if cfg.TagServiceDef != nil {
		if cfg.TagPolicies, err = ApplyPolicyDeltas(cfg.TagPolicies, deltas, cfg.TagServiceDef.Name); err != nil {
			return cfg, err
		}
	}
	if zones == nil {
		return cfg, nil
	}
	updated := make(map[string]SecurityZoneInfo, len(zones))
	for name, z := range zones {
		old := cfg.SecurityZones[name]
		if z.Policies, err = ApplyPolicyDeltas(old.Policies, z.PolicyDeltas, cfg.ServiceDef.Name); err != nil {
			return cfg, fmt.Errorf("security zone %s: %w", name, err)
		}
		z.PolicyDeltas = nil
		updated[name] = z
	}
	cfg.SecurityZones = updated
	return cfg, nil
}

// policyEngineConfig is the configuration a test file describes: its
// policies, security zones, service configuration, tag policies, roles
// (userRoles, groupRoles, roleRoles as the harness turns them into a
// roles download), super users and groups (the harness's plugin
// configuration) and, when the tag service defines a file-based tag
// enricher, the tags of its ServiceTags file.
func policyEngineConfig(root, path string, f *policyEngineFile) (Config, error) {
	if f.ServiceDef == nil {
		return Config{}, fmt.Errorf("no serviceDef")
	}
	cfg := Config{
		ServiceDef:    f.ServiceDef,
		Policies:      f.Policies,
		SecurityZones: f.SecurityZones,
		ServiceConfig: f.ServiceConfig,
		Roles:         harnessRoles(f),
		SuperUsers:    f.SuperUsers,
		SuperGroups:   f.SuperGroups,
	}
	geo, err := loadGeolocationFiles(root, f.ServiceDef)
	if err != nil {
		return Config{}, err
	}
	cfg.GeolocationFiles = geo
	if f.TagPolicyInfo != nil {
		cfg.TagServiceDef = f.TagPolicyInfo.ServiceDef
		cfg.TagPolicies = f.TagPolicyInfo.TagPolicies
		cfg.TagServiceConfig = f.TagPolicyInfo.ServiceConfig
		if cfg.TagServiceDef != nil {
			for _, ce := range cfg.TagServiceDef.ContextEnrichers {
				name := ce.EnricherOptions["serviceTagsFileName"]
				if name == "" {
					continue
				}
				st, err := loadServiceTags(root, path, name)
				if err != nil {
					return Config{}, err
				}
				cfg.ServiceTags = st
			}
		}
	}
	return cfg, nil
}

// loadServiceTags reads a tag enricher's ServiceTags file. Ranger names it
// as a class-path resource ("/policyengine/x.json"); it is looked for under
// the directory run, then next to the test file.
func loadServiceTags(root, testPath, name string) (*ServiceTags, error) {
	candidates := []string{
		filepath.Join(root, filepath.FromSlash(name)),
		filepath.Join(filepath.Dir(testPath), filepath.Base(name)),
		filepath.Join(root, filepath.Base(name)),
	}
	for _, c := range candidates {
		data, err := os.ReadFile(c)
		if err != nil {
			continue
		}
		var st ServiceTags
		if err := json.Unmarshal(data, &st); err != nil {
			return nil, fmt.Errorf("service tags file %s: %w", name, err)
		}
		return &st, nil
	}
	return nil, fmt.Errorf("service tags file %s not found", name)
}

// loadGeolocationFiles reads the files the service definition's
// geolocation enrichers name. Ranger's test resources keep them under
// etc/ranger/geo; here they are under geo/ in the directory run.
func loadGeolocationFiles(root string, def *ServiceDef) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, ce := range def.ContextEnrichers {
		if !strings.HasSuffix(ce.Enricher, "."+geolocationClass) {
			continue
		}
		name := ce.EnricherOptions["FilePath"]
		data, err := os.ReadFile(filepath.Join(root, "geo", filepath.Base(name)))
		if err != nil {
			return nil, fmt.Errorf("geolocation file %s: %w", name, err)
		}
		out[name] = data
	}
	return out, nil
}

func harnessRoles(f *policyEngineFile) *Roles {
	members := map[string]*Role{}
	role := func(name string) *Role {
		if r, ok := members[name]; ok {
			return r
		}
		r := &Role{Name: name}
		members[name] = r
		return r
	}
	for user, roles := range f.UserRoles {
		for _, r := range roles {
			role(r).Users = append(role(r).Users, RoleMember{Name: user})
		}
	}
	for group, roles := range f.GroupRoles {
		for _, r := range roles {
			role(r).Groups = append(role(r).Groups, RoleMember{Name: group})
		}
	}
	for member, roles := range f.RoleRoles {
		for _, r := range roles {
			role(r).Roles = append(role(r).Roles, RoleMember{Name: member})
		}
	}
	out := &Roles{}
	for _, name := range keysOf(members) {
		out.RangerRoles = append(out.RangerRoles, *members[name])
	}
	sort.Slice(out.RangerRoles, func(i, j int) bool { return out.RangerRoles[i].Name < out.RangerRoles[j].Name })
	return out
}

// request turns a test request into a Request. As in the harness, a TAGS
// entry in the context (even empty) replaces the tag store, and
// REQUESTED_RESOURCES is read only when there is no TAGS entry.
func (t *policyEngineTest) request() (*Request, error) {
	tr := &t.Request
	req := &Request{
		Resource:       Resource{},
		AccessType:     tr.AccessType,
		User:           tr.User,
		Groups:         tr.UserGroups,
		Roles:          tr.UserRoles,
		Owner:          tr.Resource.OwnerUser,
		UserAttributes: t.UserAttributes[tr.User],
		// The engine's preProcess takes the remote address as the
		// client's (forwarded addresses are not trusted by default).
		ClientIPAddress:    tr.RemoteIPAddress,
		RemoteIPAddress:    tr.RemoteIPAddress,
		ForwardedAddresses: tr.ForwardedAddresses,
		Action:             tr.Action,
		RequestData:        tr.RequestData,
		ClientType:         tr.ClientType,
		ClusterName:        tr.ClusterName,
		ClusterType:        tr.ClusterType,
	}
	for level, scope := range tr.ResourceElementMatchingScopes {
		switch scope {
		case "SELF":
		case "SELF_OR_PREFIX":
			if req.ElementMatchingScopes == nil {
				req.ElementMatchingScopes = map[string]ElementMatchingScope{}
			}
			req.ElementMatchingScopes[level] = ScopeSelfOrPrefix
		default:
			return nil, fmt.Errorf("resource element matching scope %q is not supported", scope)
		}
	}
	if req.ClientIPAddress == "" {
		req.ClientIPAddress = tr.ClientIPAddress
	}
	for k, v := range tr.Resource.Elements {
		req.Resource[k] = v
	}
	if tr.AccessTime != "" {
		at, err := time.Parse(time.RFC3339, tr.AccessTime)
		if err != nil {
			return nil, fmt.Errorf("accessTime %q: %w", tr.AccessTime, err)
		}
		req.AccessTime = at
	}
	ctx := tr.Context
	if raw, ok := ctx["TAGS"]; ok {
		req.TagsGiven = true
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("context TAGS: %w", err)
		}
		if s != "" {
			if err := json.Unmarshal([]byte(s), &req.Tags); err != nil {
				return nil, fmt.Errorf("context TAGS: %w", err)
			}
		}
	} else if raw, ok := ctx["REQUESTED_RESOURCES"]; ok {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("context REQUESTED_RESOURCES: %w", err)
		}
		var rr struct {
			RequestedResources []struct {
				Elements map[string]stringOrList `json:"elements"`
			} `json:"requestedResources"`
		}
		if err := json.Unmarshal([]byte(s), &rr); err != nil {
			return nil, fmt.Errorf("context REQUESTED_RESOURCES: %w", err)
		}
		for _, r := range rr.RequestedResources {
			res := Resource{}
			for k, v := range r.Elements {
				res[k] = v
			}
			req.RequestedResources = append(req.RequestedResources, res)
		}
	}
	// Other context entries are context attributes (strings as Ranger's
	// conditions read them).
	for k, raw := range ctx {
		switch k {
		case "TAGS", "REQUESTED_RESOURCES", "ACCESSTYPES", "ISANYACCESS":
			continue
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			s = string(raw)
		}
		if req.Context == nil {
			req.Context = map[string]string{}
		}
		req.Context[k] = s
	}
	if raw, ok := ctx["ACCESSTYPES"]; ok {
		if err := json.Unmarshal(raw, &req.AccessTypes); err != nil {
			return nil, fmt.Errorf("context ACCESSTYPES: %w", err)
		}
		if raw, ok := ctx["ISANYACCESS"]; ok {
			if err := json.Unmarshal(raw, &req.AnyOf); err != nil {
				return nil, fmt.Errorf("context ISANYACCESS: %w", err)
			}
		}
	}
	return req, nil
}

// checkPolicyEngineTest evaluates each expected result of a test as
// TestPolicyEngine checks it: access compares isAllowed and isAudited;
// masks compare maskType, maskCondition, maskedValue and policyId; row
// filters compare filterExpr and policyId. It returns the mismatches.
func checkPolicyEngineTest(ev *Evaluator, t *policyEngineTest, req *Request) []string {
	var problems []string
	mismatch := func(what string, want, got any) {
		problems = append(problems, fmt.Sprintf("%s: want %v, got %v", what, want, got))
	}
	if want := t.Result; want != nil {
		got := ev.IsAccessAllowed(req)
		if got.Allowed != want.IsAllowed {
			mismatch("isAllowed", want.IsAllowed, got.Allowed)
		}
		if got.Audited != want.IsAudited {
			mismatch("isAudited", want.IsAudited, got.Audited)
		}
	}
	if want := t.DataMaskResult; want != nil {
		got, err := ev.EvalDataMask(req)
		if err != nil {
			problems = append(problems, "data mask: "+err.Error())
		} else {
			if w := want.info("maskType"); got.MaskType != w {
				mismatch("maskType", quoted(w), quoted(got.MaskType))
			}
			if w := want.info("maskCondition"); got.ConditionExpr != w {
				mismatch("maskCondition", quoted(w), quoted(got.ConditionExpr))
			}
			if w := want.info("maskedValue"); got.ValueExpr != w {
				mismatch("maskedValue", quoted(w), quoted(got.ValueExpr))
			}
			if w := want.policyID(); got.PolicyID != w {
				mismatch("data mask policyId", w, got.PolicyID)
			}
		}
	}
	if want := t.RowFilterResult; want != nil {
		got, err := ev.EvalRowFilter(req)
		if err != nil {
			problems = append(problems, "row filter: "+err.Error())
		} else {
			if w := want.info("filterExpr"); got.FilterExpr != w {
				mismatch("filterExpr", quoted(w), quoted(got.FilterExpr))
			}
			if w := want.policyID(); got.PolicyID != w {
				mismatch("row filter policyId", w, got.PolicyID)
			}
		}
	}
	return problems
}

func quoted(s string) string {
	if s == "" {
		return "null"
	}
	return fmt.Sprintf("%q", s)
}

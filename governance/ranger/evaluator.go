package ranger

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// Config is everything an Evaluator is built from.
type Config struct {
	// ServiceDef and Policies are the service's definition and policies.
	ServiceDef *ServiceDef
	Policies   []Policy
	// TagServiceDef and TagPolicies are the linked tag service's; nil when
	// there is none.
	TagServiceDef *ServiceDef
	TagPolicies   []Policy
	// ServiceTags is the tag store: which tags sit on which resources. A
	// request that brings its own tags does not consult it.
	ServiceTags *ServiceTags
	// SecurityZones are the service's security zones, each with its own
	// policies. A policy of Policies or TagPolicies naming a zone belongs
	// to it; naming a zone not listed here is an error.
	SecurityZones map[string]SecurityZoneInfo
	// Roles is the roles download; it gives users and groups their roles.
	Roles *Roles
	// SuperUsers and SuperGroups are allowed every access before any
	// policy is evaluated.
	SuperUsers  []string
	SuperGroups []string
	// ServiceConfig and TagServiceConfig are the service's and the tag
	// service's configuration (a download's serviceConfig). The evaluator
	// reads ranger.plugin.super.users and ranger.plugin.super.groups
	// (comma-separated, added to SuperUsers and SuperGroups) and
	// ranger.plugin.audit.filters (which requests are audited).
	ServiceConfig    StringMap
	TagServiceConfig StringMap
	// GeolocationFiles are the contents of the files the service
	// definition's geolocation enrichers (RangerFileBasedGeolocationProvider)
	// read, by the FilePath they name. The evaluator reads no file itself:
	// an enricher whose file is not given here fails New.
	GeolocationFiles map[string][]byte
	// MaskPrecedence decides between a tag mask and a resource mask of the
	// same priority: MaskPrecedenceTag (the default when empty) evaluates
	// tag masks first, in the order of Ranger's plugins, so the tag mask
	// wins; MaskPrecedenceResource evaluates resource masks first, so the
	// mask written for the column wins. A mask of strictly higher priority
	// wins either way.
	MaskPrecedence string
}

// Mask precedences (Config.MaskPrecedence).
const (
	MaskPrecedenceTag      = "tag"
	MaskPrecedenceResource = "resource"
)

// ConfigFromDownload is the Config of a policy download, with its tag
// policies when it carries them.
func ConfigFromDownload(sp *ServicePolicies) Config {
	c := Config{ServiceDef: sp.ServiceDef, Policies: sp.Policies, ServiceConfig: sp.ServiceConfig, SecurityZones: sp.SecurityZones}
	if sp.TagPolicies != nil {
		c.TagServiceDef = sp.TagPolicies.ServiceDef
		c.TagPolicies = sp.TagPolicies.Policies
		c.TagServiceConfig = sp.TagPolicies.ServiceConfig
	}
	return c
}

// Evaluator answers access, data-mask and row-filter questions for one
// service with Ranger's semantics. It is immutable once built and safe for
// concurrent use.
type Evaluator struct {
	types *accessTypeIndex
	// everyType is the access types an any-access request is tried with.
	everyType []int

	access, masks, filters          []*compiledPolicy
	tagAccess, tagMasks, tagFilters []*compiledPolicy
	tagged                          []taggedResource
	// resourceMasksFirst: resource masks are evaluated before tag masks
	// (MaskPrecedenceResource).
	resourceMasksFirst bool

	roles       *roleGraph
	usesRoles   bool
	superUsers  map[string]struct{}
	superGroups map[string]struct{}
	maskTypes   map[string]DataMaskTypeDef
	// maskLevels are the resource levels of the service's data masks.
	maskLevels map[string]*resourceLevel
	// zones are the security zones, each deciding the requests for its
	// resources.
	zones []*securityZone
	// auditFilters and tagAuditFilters are the service's and the tag
	// service's ranger.plugin.audit.filters, in the order configured.
	auditFilters, tagAuditFilters []*compiledAuditFilter

	// scripts compiles the condition scripts, each text once.
	scripts *scriptRuntime
	// refused are the policies that cannot be evaluated (RefusedPolicy).
	refused []RefusedPolicy
	// enrichers add context values (geolocation) to requests.
	enrichers []geolocationEnricher
	// resourceOrder is the longest resource hierarchy, in which scripts
	// see a resource's levels.
	resourceOrder []string
}

// New compiles a configuration. It fails on anything it cannot evaluate
// faithfully (an unknown resource, matcher or condition, a resource set
// outside the hierarchy), so that no policy is silently misread.
func New(cfg Config) (*Evaluator, error) {
	def := cfg.ServiceDef
	if def == nil {
		return nil, errors.New("ranger evaluator: no service definition")
	}
	resourceMasksFirst, err := parseMaskPrecedence(cfg.MaskPrecedence)
	if err != nil {
		return nil, err
	}
	e := &Evaluator{
		resourceMasksFirst: resourceMasksFirst,
		types:              newAccessTypeIndex(),
		roles:              newRoleGraph(cfg.Roles),
		superUsers:         set(append(slices.Clone(cfg.SuperUsers), splitConfigList(cfg.ServiceConfig[ConfigSuperUsers])...)),
		superGroups:        set(append(slices.Clone(cfg.SuperGroups), splitConfigList(cfg.ServiceConfig[ConfigSuperGroups])...)),
		maskTypes:          map[string]DataMaskTypeDef{},
	}
	resources, err := newHierarchies(def.Resources, def.Resources)
	if err != nil {
		return nil, fmt.Errorf("service %s: %w", def.Name, err)
	}
	if e.scripts, err = newScriptRuntime(); err != nil {
		return nil, err
	}
	for _, p := range resources.paths {
		if len(p) > len(e.resourceOrder) {
			e.resourceOrder = p
		}
	}
	if e.enrichers, err = compileEnrichers(def, cfg.GeolocationFiles); err != nil {
		return nil, fmt.Errorf("service %s: %w", def.Name, err)
	}
	if err := checkZones(cfg); err != nil {
		return nil, fmt.Errorf("service %s: %w", def.Name, err)
	}
	if len(cfg.SecurityZones) > 0 {
		if e.zones, err = compileZones(cfg, resources); err != nil {
			return nil, fmt.Errorf("service %s: %w", def.Name, err)
		}
		cfg.Policies = policiesOfZone(cfg.Policies, "")
		cfg.TagPolicies = policiesOfZone(cfg.TagPolicies, "")
	}
	if err := e.compileService(def, resources, cfg.Policies); err != nil {
		return nil, fmt.Errorf("service %s: %w", def.Name, err)
	}
	if cfg.TagServiceDef != nil {
		if err := e.compileTags(def, resources, cfg.TagServiceDef, cfg.TagPolicies); err != nil {
			return nil, fmt.Errorf("tag service %s: %w", cfg.TagServiceDef.Name, err)
		}
	}
	if err := e.compileAuditFilters(cfg, resources); err != nil {
		return nil, err
	}
	if cfg.ServiceTags != nil {
		if e.tagged, err = compileServiceTags(resources, cfg.ServiceTags); err != nil {
			return nil, fmt.Errorf("service tags: %w", err)
		}
	}
	for i := adminBit + 1; i < len(e.types.names); i++ {
		e.everyType = append(e.everyType, i)
	}
	for _, list := range [][]*compiledPolicy{e.access, e.masks, e.filters, e.tagAccess, e.tagMasks, e.tagFilters} {
		sortPolicies(list)
		for _, p := range list {
			e.usesRoles = e.usesRoles || p.usesRoles()
		}
	}
	return e, nil
}

// parseMaskPrecedence reads Config.MaskPrecedence: whether resource masks
// come first.
func parseMaskPrecedence(precedence string) (bool, error) {
	switch precedence {
	case "", MaskPrecedenceTag:
		return false, nil
	case MaskPrecedenceResource:
		return true, nil
	}
	return false, fmt.Errorf("ranger evaluator: mask precedence %q: want %q or %q", precedence, MaskPrecedenceTag, MaskPrecedenceResource)
}

// newContext starts the evaluation of a request.
func (e *Evaluator) newContext(req *Request) *evalContext {
	ec := &evalContext{e: e, req: req, now: req.AccessTime, resourceOrder: e.resourceOrder}
	if ec.now.IsZero() {
		ec.now = time.Now()
	}
	if e.usesRoles {
		ec.userRoles()
	}
	return ec
}

// isSuper reports whether the caller is a super user or in a super group.
func (e *Evaluator) isSuper(req *Request) bool {
	if _, ok := e.superUsers[req.User]; ok && req.User != "" {
		return true
	}
	for _, g := range req.Groups {
		if _, ok := e.superGroups[g]; ok {
			return true
		}
	}
	return false
}

// compileAuditFilters compiles the service's and the tag service's audit
// filters.
func (e *Evaluator) compileAuditFilters(cfg Config, resources *hierarchies) error {
	filters, err := parseAuditFilters(cfg.ServiceConfig[ConfigAuditFilters])
	if err == nil {
		e.auditFilters, err = compileAuditFilters(filters, resources, "")
	}
	if err != nil {
		return fmt.Errorf("service %s: %w", cfg.ServiceDef.Name, err)
	}
	text := cfg.TagServiceConfig[ConfigAuditFilters]
	if cfg.TagServiceDef == nil || text == "" {
		for _, f := range e.auditFilters {
			e.usesRoles = e.usesRoles || len(f.roles) > 0
		}
		return nil
	}
	tagDef := cfg.TagServiceDef
	if filters, err = parseAuditFilters(text); err != nil {
		return fmt.Errorf("tag service %s: %w", tagDef.Name, err)
	}
	h, err := newHierarchies(tagDef.Resources, tagDef.Resources)
	if err == nil && len(tagDef.Resources) != 1 {
		err = fmt.Errorf("a tag service definition has exactly one resource, not %d", len(tagDef.Resources))
	}
	if err == nil {
		e.tagAuditFilters, err = compileAuditFilters(filters, h, tagDef.Resources[0].Name)
	}
	if err != nil {
		return fmt.Errorf("tag service %s: %w", tagDef.Name, err)
	}
	for _, f := range append(slices.Clone(e.auditFilters), e.tagAuditFilters...) {
		e.usesRoles = e.usesRoles || len(f.roles) > 0
	}
	return nil
}

// checkZones refuses a policy naming a zone the configuration does not
// define: applied outside its zone it would grant too much.
func checkZones(cfg Config) error {
	for _, list := range [][]Policy{cfg.Policies, cfg.TagPolicies} {
		for _, p := range list {
			if p.ZoneName == "" {
				continue
			}
			if _, ok := cfg.SecurityZones[p.ZoneName]; !ok {
				return fmt.Errorf("policy %d (%s): security zone %q is not defined", p.ID, p.Name, p.ZoneName)
			}
		}
	}
	return nil
}

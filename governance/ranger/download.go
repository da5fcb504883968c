package ranger

// ServicePolicies is what a Ranger plugin downloads for its service
// (GET /plugins/policies/download/{service}): the service definition, the
// service's policies and, when a tag service is linked, its tag policies.
type ServicePolicies struct {
	ServiceName   string       `json:"serviceName"`
	ServiceID     int64        `json:"serviceId,omitempty"`
	PolicyVersion *int64       `json:"policyVersion,omitempty"`
	Policies      []Policy     `json:"policies"`
	ServiceDef    *ServiceDef  `json:"serviceDef"`
	AuditMode     string       `json:"auditMode,omitempty"`
	TagPolicies   *TagPolicies `json:"tagPolicies,omitempty"`
	ServiceConfig StringMap    `json:"serviceConfig,omitempty"`
	// SecurityZones are the service's zones and their policies.
	SecurityZones map[string]SecurityZoneInfo `json:"securityZones,omitempty"`
	// PolicyDeltas, in a delta download, are the changes since the
	// plugin's version; ApplyPolicyDeltas applies them.
	PolicyDeltas []PolicyDelta `json:"policyDeltas,omitempty"`
}

// TagPolicies is ServicePolicies.TagPolicies: the linked tag service's
// definition and policies.
type TagPolicies struct {
	ServiceName   string      `json:"serviceName"`
	ServiceID     int64       `json:"serviceId,omitempty"`
	PolicyVersion *int64      `json:"policyVersion,omitempty"`
	Policies      []Policy    `json:"policies"`
	ServiceDef    *ServiceDef `json:"serviceDef"`
	AuditMode     string      `json:"auditMode,omitempty"`
	ServiceConfig StringMap   `json:"serviceConfig,omitempty"`
}

// ServiceTags is the tag download (GET /tags/download/{service}): which
// tags are attached to which resources of the service.
type ServiceTags struct {
	Op               string             `json:"op,omitempty"`
	TagModel         string             `json:"tagModel,omitempty"`
	ServiceName      string             `json:"serviceName"`
	TagVersion       int64              `json:"tagVersion,omitempty"`
	TagDefinitions   map[string]TagDef  `json:"tagDefinitions,omitempty"`
	Tags             map[string]Tag     `json:"tags"`
	ServiceResources []ServiceResource  `json:"serviceResources"`
	ResourceToTagIDs map[string][]int64 `json:"resourceToTagIds"`
	IsDelta          bool               `json:"isDelta,omitempty"`
}

// TagDef is RangerTagDef: a tag type and its attributes.
type TagDef struct {
	ID            int64             `json:"id,omitempty"`
	GUID          string            `json:"guid,omitempty"`
	Name          string            `json:"name"`
	Source        string            `json:"source,omitempty"`
	AttributeDefs []TagAttributeDef `json:"attributeDefs,omitempty"`
}

// TagAttributeDef is RangerTagAttributeDef.
type TagAttributeDef struct {
	Name string `json:"name"`
	Type string `json:"type,omitempty"`
}

// Tag is RangerTag: one tag instance with its attribute values.
type Tag struct {
	ID         int64             `json:"id,omitempty"`
	GUID       string            `json:"guid,omitempty"`
	Type       string            `json:"type"`
	Attributes map[string]string `json:"attributes,omitempty"`
}

// ServiceResource is RangerServiceResource: a resource, written like a
// policy's resources, that tags are attached to.
type ServiceResource struct {
	ID                int64                     `json:"id"`
	GUID              string                    `json:"guid,omitempty"`
	ServiceName       string                    `json:"serviceName,omitempty"`
	ResourceElements  map[string]PolicyResource `json:"resourceElements"`
	ResourceSignature string                    `json:"resourceSignature,omitempty"`
}

// Roles is RangerRoles, the roles download (GET /roles/download/{service}).
type Roles struct {
	ServiceName string `json:"serviceName,omitempty"`
	RoleVersion int64  `json:"roleVersion,omitempty"`
	RangerRoles []Role `json:"rangerRoles"`
}

// Role is RangerRole. Its members are users, groups and other roles; a
// member role's members belong to this role too.
type Role struct {
	ID          int64          `json:"id,omitempty"`
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Options     map[string]any `json:"options,omitempty"`
	Users       []RoleMember   `json:"users,omitempty"`
	Groups      []RoleMember   `json:"groups,omitempty"`
	Roles       []RoleMember   `json:"roles,omitempty"`
}

// RoleMember is RangerRole.RoleMember.
type RoleMember struct {
	Name    string `json:"name"`
	IsAdmin bool   `json:"isAdmin,omitempty"`
}

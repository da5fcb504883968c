package polarisadmin

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// Service is gate one's Polaris backend. It keeps no state besides its
// configuration and the management token: every statement reads Polaris
// afresh, so several servers (and Polaris's own console) may share it. It
// is safe for concurrent use.
type Service struct {
	cfg     Config
	client  *client
	profile *grants.Profile
	mapping *grants.PolarisMapping
}

// New builds the service; it does not contact Polaris.
func New(cfg Config) (*Service, error) {
	cfg, err := cfg.check()
	if err != nil {
		return nil, err
	}
	profile, err := grants.Load()
	if err != nil {
		return nil, fmt.Errorf("polaris backend: %w", err)
	}
	mapping, err := profile.LoadPolarisMapping()
	if err != nil {
		return nil, fmt.Errorf("polaris backend: %w", err)
	}
	return &Service{cfg: cfg, client: &client{cfg: cfg}, profile: profile, mapping: mapping}, nil
}

// userRolePrefix starts the name of the principal and catalog roles that
// stand for one user; userProperty, on them, names the user.
const (
	userRolePrefix = "sqe_user_"
	userProperty   = "sqe.user"
)

// role is a principal or catalog role as the management API returns it.
type role struct {
	Name       string            `json:"name"`
	Properties map[string]string `json:"properties,omitempty"`
}

// grantResource is Polaris's GrantResource: type catalog, namespace,
// table or view, with the securable's names and the privilege.
type grantResource struct {
	Type      string   `json:"type"`
	Namespace []string `json:"namespace,omitempty"`
	TableName string   `json:"tableName,omitempty"`
	ViewName  string   `json:"viewName,omitempty"`
	Privilege string   `json:"privilege"`
}

// roleName is the Polaris role that stands for grantee g.
func roleName(g grants.Grantee) (string, map[string]string) {
	if g.Kind == grants.GranteeUser {
		return userRolePrefix + g.Name, map[string]string{userProperty: g.Name}
	}
	return g.Name, nil
}

// polarisCatalog is the Polaris catalog of SQE catalog name.
func (s *Service) polarisCatalog(name string) (string, error) {
	if c, ok := s.cfg.Catalogs[name]; ok {
		return c, nil
	}
	return "", pgerror.New(pgerror.FeatureNotSupported, "database \"%s\" is not governed by Polaris", name).
		WithDetail("Grants are written only on the catalogs [access_control.polaris] catalogs maps to a Polaris catalog.")
}

// sqeCatalogs lists the mapped SQE catalogs in name order.
func (s *Service) sqeCatalogs() []string { return slices.Sorted(maps.Keys(s.cfg.Catalogs)) }

// isAdmin reports whether roles hold an administrator role.
func (s *Service) isAdmin(roles []string) bool {
	return slices.ContainsFunc(roles, func(r string) bool { return slices.Contains(s.cfg.AdminRoles, r) })
}

func (s *Service) requireAdmin(caller access.Caller, what string) error {
	if s.isAdmin(caller.Roles) {
		return nil
	}
	return pgerror.New(pgerror.InsufficientPrivilege, "permission denied to %s", what).
		WithDetail("Only roles listed in [auth] admin_roles may %s.", what)
}

// MayChange refuses, before names are resolved, a statement the caller
// can never carry out: DENY always, GRANT and REVOKE without an
// administrator role.
func (s *Service) MayChange(caller access.Caller, action grants.Action) error {
	if action == grants.ActionDeny {
		return errDeny()
	}
	return grants.RequireAdmin(grants.Grantor{User: caller.User, Roles: caller.Roles, Groups: caller.Groups}, action,
		grants.Authority{Mode: grants.AuthorityAdminRole, AdminRoles: s.cfg.AdminRoles})
}

// Change carries out a GRANT or REVOKE: planned with the grant profile,
// translated by its Polaris table, then written grantee by grantee and,
// for a GRANT, outermost level first, so that a failure half-way leaves
// at most traversal ("may list, can read nothing") behind. It returns the
// profile's plan.
func (s *Service) Change(ctx context.Context, caller access.Caller, action grants.Action, st grants.Statement) (grants.Plan, error) {
	if err := s.MayChange(caller, action); err != nil {
		return grants.Plan{}, err
	}
	plan, err := access.PlanChange(s.profile, caller, action, st, grants.DefaultRealm)
	if err != nil {
		return grants.Plan{}, err
	}
	writes, err := s.mapping.Writes(plan)
	if err != nil {
		return grants.Plan{}, err
	}
	cat, err := s.polarisCatalog(plan.Object.Catalog)
	if err != nil {
		return grants.Plan{}, err
	}
	for _, g := range plan.Grantees {
		if g.Kind == grants.GranteeGroup {
			continue // REVOKE from a group: Polaris holds no group grants
		}
		name, props := roleName(g)
		if action == grants.ActionGrant {
			if err := s.ensureGrantee(ctx, cat, g, name, props); err != nil {
				return grants.Plan{}, err
			}
		}
		var held []heldGrant
		if action == grants.ActionRevoke {
			// Only grants the role holds are revoked: REVOKE of a
			// privilege not held does nothing, as in PostgreSQL.
			held, err = s.roleGrants(ctx, plan.Object.Catalog, role{Name: name, Properties: props})
			if isNotFound(err) {
				continue
			}
			if err != nil {
				return grants.Plan{}, err
			}
		}
		for _, w := range writes {
			for _, p := range w.Privileges {
				gr := securable(w.Resource, plan.Object.Kind, p)
				body := map[string]any{"grant": gr}
				path := "/catalogs/" + seg(cat) + "/catalog-roles/" + seg(name) + "/grants"
				if action == grants.ActionGrant {
					err = s.client.do(ctx, http.MethodPut, path, body, nil)
					if isNotFound(err) {
						// The role was made just above: the securable is
						// what Polaris does not have.
						return grants.Plan{}, pgerror.Wrap(err, pgerror.UndefinedObject, "%s does not exist in Polaris catalog %s", scopeName(w.Resource, plan.Object.Kind), cat)
					}
				} else {
					if !slices.ContainsFunc(held, func(h heldGrant) bool { return h.privilege == p && sameSecurable(h.resource, w.Resource) }) {
						continue
					}
					err = s.client.do(ctx, http.MethodPost, path, body, nil)
				}
				if err != nil {
					return grants.Plan{}, userError(err, fmt.Sprintf("%s %s on %s for %s", strings.ToLower(string(action)), p, w.Resource, g))
				}
			}
		}
	}
	return plan, nil
}

// securable is the GrantResource for privilege p on r. The table level of
// a view is a view securable.
func securable(r grants.Resource, kind grants.ObjectKind, p string) grantResource {
	switch r.Level() {
	case grants.LevelCatalog:
		return grantResource{Type: "catalog", Privilege: p}
	case grants.LevelNamespace:
		return grantResource{Type: "namespace", Namespace: []string{r.Namespace}, Privilege: p}
	}
	if kind == grants.ObjectView {
		return grantResource{Type: "view", Namespace: []string{r.Namespace}, ViewName: r.Table, Privilege: p}
	}
	return grantResource{Type: "table", Namespace: []string{r.Namespace}, TableName: r.Table, Privilege: p}
}

// ensureGrantee makes the roles standing for g exist in Polaris and hang
// together: the principal role, the catalog role in cat granted to it
// and, for a user, the principal role granted to the user's principal. A
// role grantee must have been created (CREATE ROLE, or in Polaris); a
// user must be a Polaris principal.
func (s *Service) ensureGrantee(ctx context.Context, cat string, g grants.Grantee, name string, props map[string]string) error {
	if g.Kind == grants.GranteeUser {
		err := s.client.do(ctx, http.MethodGet, "/principals/"+seg(g.Name), nil, nil)
		if statusOf(err) == http.StatusNotFound {
			return pgerror.New(pgerror.UndefinedObject, "user \"%s\" is not a Polaris principal", g.Name).
				WithHint("Create the principal in Polaris first; SQE does not create principals.")
		}
		if err != nil {
			return userError(err, "look up principal "+g.Name)
		}
		if err := s.create(ctx, "/principal-roles", map[string]any{"principalRole": role{Name: name, Properties: props}}); err != nil {
			return userError(err, "create principal role "+name)
		}
		if err := s.client.do(ctx, http.MethodPut, "/principals/"+seg(g.Name)+"/principal-roles",
			map[string]any{"principalRole": role{Name: name}}, nil); err != nil {
			return userError(err, "grant principal role "+name+" to "+g.Name)
		}
	} else {
		err := s.client.do(ctx, http.MethodGet, "/principal-roles/"+seg(name), nil, nil)
		if statusOf(err) == http.StatusNotFound {
			return pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", name).
				WithHint("CREATE ROLE %s first, or create the principal role in Polaris.", name)
		}
		if err != nil {
			return userError(err, "look up role "+name)
		}
	}
	return s.linkCatalogRole(ctx, cat, name, name, props)
}

// linkCatalogRole makes the catalog role cr exist in cat and grants it to
// the principal role pr. Both requests are idempotent.
func (s *Service) linkCatalogRole(ctx context.Context, cat, cr, pr string, props map[string]string) error {
	if err := s.create(ctx, "/catalogs/"+seg(cat)+"/catalog-roles", map[string]any{"catalogRole": role{Name: cr, Properties: props}}); err != nil {
		return userError(err, "create catalog role "+cr+" in "+cat)
	}
	if err := s.client.do(ctx, http.MethodPut, "/principal-roles/"+seg(pr)+"/catalog-roles/"+seg(cat),
		map[string]any{"catalogRole": role{Name: cr}}, nil); err != nil {
		return userError(err, "grant catalog role "+cr+" to role "+pr)
	}
	return nil
}

// create POSTs body to path; an object that exists already (409) is
// success.
func (s *Service) create(ctx context.Context, path string, body any) error {
	err := s.client.do(ctx, http.MethodPost, path, body, nil)
	if statusOf(err) == http.StatusConflict {
		return nil
	}
	return err
}

// sameSecurable reports whether a grant read back sits on the securable
// w writes to (a namespace grant read back as "ns.*" is the namespace).
func sameSecurable(held, w grants.Resource) bool {
	if held.Table == grants.Wildcard {
		held.Table = ""
	}
	held.Root, w.Root = "", ""
	return held == w
}

// isNotFound reports whether err is Polaris's 404, however wrapped.
func isNotFound(err error) bool { return statusOf(err) == http.StatusNotFound }

// scopeName names the securable r for messages.
func scopeName(r grants.Resource, kind grants.ObjectKind) string {
	switch r.Level() {
	case grants.LevelCatalog:
		return "catalog " + r.Catalog
	case grants.LevelNamespace:
		return "schema " + r.Catalog + "." + r.Namespace
	}
	return string(kind) + " " + r.String()
}

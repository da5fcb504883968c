package ranger

// Special principals of a policy item.
const (
	// UserCurrent ({USER}) in an item's users matches every user.
	UserCurrent = "{USER}"
	// UserOwner ({OWNER}) matches the owner of the resource.
	UserOwner = "{OWNER}"
	// GroupPublic in an item's groups matches every user.
	GroupPublic = "public"
)

// principals is who an item applies to, compiled.
type principals struct {
	users, groups, roles map[string]struct{}
	everyone, owner      bool
}

func newPrincipals(it *PolicyItem) principals {
	p := principals{users: set(it.Users), groups: set(it.Groups), roles: set(it.Roles)}
	if _, ok := p.users[UserCurrent]; ok {
		p.everyone = true
	}
	if _, ok := p.groups[GroupPublic]; ok {
		p.everyone = true
	}
	_, p.owner = p.users[UserOwner]
	return p
}

func (p *principals) matches(ec *evalContext) bool {
	if p.everyone {
		return true
	}
	u := ec.req.User
	if u != "" {
		if _, ok := p.users[u]; ok {
			return true
		}
		if p.owner && u == ec.req.Owner {
			return true
		}
	}
	if len(p.groups) > 0 {
		for _, g := range ec.req.Groups {
			if _, ok := p.groups[g]; ok {
				return true
			}
		}
	}
	if len(p.roles) > 0 {
		for _, r := range ec.roles {
			if _, ok := p.roles[r]; ok {
				return true
			}
		}
	}
	return false
}

func set(values []string) map[string]struct{} {
	if len(values) == 0 {
		return nil
	}
	m := make(map[string]struct{}, len(values))
	for _, v := range values {
		if v != "" {
			m[v] = struct{}{}
		}
	}
	return m
}

// roleGraph answers which roles a user holds: the roles listing the user
// or one of the user's groups (every user is in "public"), and every role
// listing one of those, followed transitively.
type roleGraph struct {
	byUser  map[string][]string
	byGroup map[string][]string
	parents map[string][]string
}

func newRoleGraph(roles *Roles) *roleGraph {
	g := &roleGraph{byUser: map[string][]string{}, byGroup: map[string][]string{}, parents: map[string][]string{}}
	if roles == nil {
		return g
	}
	for _, r := range roles.RangerRoles {
		for _, m := range r.Users {
			g.byUser[m.Name] = append(g.byUser[m.Name], r.Name)
		}
		for _, m := range r.Groups {
			g.byGroup[m.Name] = append(g.byGroup[m.Name], r.Name)
		}
		for _, m := range r.Roles {
			g.parents[m.Name] = append(g.parents[m.Name], r.Name)
		}
	}
	return g
}

// rolesOf returns direct plus every role the graph gives user and groups,
// each once.
func (g *roleGraph) rolesOf(user string, groups, direct []string) []string {
	var out []string
	add := func(rs []string) {
		for _, r := range rs {
			if !contains(out, r) {
				out = append(out, r)
			}
		}
	}
	add(direct)
	if user != "" {
		add(g.byUser[user])
	}
	for _, gr := range groups {
		add(g.byGroup[gr])
	}
	add(g.byGroup[GroupPublic])
	for i := 0; i < len(out); i++ {
		add(g.parents[out[i]])
	}
	return out
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

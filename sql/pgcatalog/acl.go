package pgcatalog

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Access privileges (pg_class.relacl, pg_namespace.nspacl,
// pg_database.datacl and information_schema.table_privileges) show gate
// one's grants as PostgreSQL's aclitem arrays, so that psql's \dp, \dn+
// and \l+ and the privilege tabs of GUI clients list them.
//
// PostgreSQL keeps NULL for an object nobody granted anything on (its
// owner's default privileges, acldefault) and, after the first GRANT, the
// owner's default entry followed by the grants. SQE does the same with
// the grants the caller may see (SHOW GRANTS' rule: an administrator sees
// every grant, another caller those naming itself, its roles or its
// groups): NULL when the caller sees no grant on the object, otherwise
// the owner's entry and then one entry per grantee and grantor. Every
// object is owned by OwnerName. A DENY has no aclitem: it takes the
// denied privileges out of the same grantee's entries, and SHOW GRANTS
// lists it.

// ACLItem is one aclitem: the privileges Grantee holds as granted by
// Grantor.
type ACLItem struct {
	Grantee string // "" is PUBLIC
	Grantor string
	// Privileges are aclitem letters (aclPrivilegeLetters); GrantOptions
	// the ones among them held WITH GRANT OPTION.
	Privileges, GrantOptions string
}

// aclPrivilegeLetters are PostgreSQL 15's privilege letters in the order
// aclitemout writes them (ACL_ALL_RIGHTS_STR), with their names as
// aclexplode and information_schema show them.
var aclPrivilegeLetters = []struct {
	letter byte
	name   string
}{
	{'a', "INSERT"}, {'r', "SELECT"}, {'w', "UPDATE"}, {'d', "DELETE"}, {'D', "TRUNCATE"},
	{'x', "REFERENCES"}, {'t', "TRIGGER"}, {'X', "EXECUTE"}, {'U', "USAGE"}, {'C', "CREATE"},
	{'T', "TEMPORARY"}, {'c', "CONNECT"}, {'s', "SET"}, {'A', "ALTER SYSTEM"},
}

// String is the aclitem as aclitemout writes it:
// grantee=privileges/grantor, each privilege letter followed by * when
// held with grant option, names quoted as putid quotes them.
func (a ACLItem) String() string {
	var b strings.Builder
	if a.Grantee != "" {
		b.WriteString(aclName(a.Grantee))
	}
	b.WriteByte('=')
	for _, p := range aclPrivilegeLetters {
		if strings.IndexByte(a.Privileges, p.letter) < 0 {
			continue
		}
		b.WriteByte(p.letter)
		if strings.IndexByte(a.GrantOptions, p.letter) >= 0 {
			b.WriteByte('*')
		}
	}
	b.WriteByte('/')
	b.WriteString(aclName(a.Grantor))
	return b.String()
}

// aclName quotes a role name as aclitemout's putid does: in double quotes,
// with inner ones doubled, unless every byte is an ASCII letter, digit or
// underscore.
func aclName(name string) string {
	safe := name != ""
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			safe = false
			break
		}
	}
	if safe {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// ParseACLItem reads an aclitem as aclitemin does: an optional (quoted)
// grantee, =, privilege letters each optionally followed by *, / and a
// grantor; whitespace around the parts is ignored. An absent grantor is
// the owner, as PostgreSQL assumes the bootstrap superuser.
func ParseACLItem(text string) (ACLItem, error) {
	s := strings.TrimSpace(text)
	grantee, rest, err := readACLName(s)
	if err != nil {
		return ACLItem{}, fmt.Errorf("invalid aclitem %q: %w", text, err)
	}
	rest = strings.TrimSpace(rest)
	if !strings.HasPrefix(rest, "=") {
		return ACLItem{}, fmt.Errorf("invalid aclitem %q: missing \"=\" sign", text)
	}
	rest = strings.TrimSpace(rest[1:])
	item := ACLItem{Grantee: grantee, Grantor: OwnerName}
	for rest != "" && rest[0] != '/' && rest[0] != ' ' {
		c := rest[0]
		if c == '*' {
			if item.Privileges == "" {
				return ACLItem{}, fmt.Errorf("invalid aclitem %q: \"*\" before any privilege", text)
			}
			item.GrantOptions += item.Privileges[len(item.Privileges)-1:]
			rest = rest[1:]
			continue
		}
		if PrivilegeName(c) == "" {
			return ACLItem{}, fmt.Errorf("invalid mode character: must be one of \"arwdDxtXUCTcsA\"")
		}
		if strings.IndexByte(item.Privileges, c) < 0 {
			item.Privileges += string(c)
		}
		rest = rest[1:]
	}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "/") {
		grantor, after, err := readACLName(strings.TrimSpace(rest[1:]))
		if err != nil {
			return ACLItem{}, fmt.Errorf("invalid aclitem %q: %w", text, err)
		}
		if grantor == "" {
			return ACLItem{}, fmt.Errorf("a name must follow the \"/\" sign")
		}
		item.Grantor, rest = grantor, strings.TrimSpace(after)
	}
	if rest != "" {
		return ACLItem{}, fmt.Errorf("extra garbage at the end of the ACL specification")
	}
	return item, nil
}

// readACLName reads a name as getid does: a run of letters, digits and
// underscores, or a double-quoted name with "" for a quote; "" when the
// text starts with neither.
func readACLName(s string) (name, rest string, err error) {
	if strings.HasPrefix(s, `"`) {
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			if s[i] != '"' {
				b.WriteByte(s[i])
				continue
			}
			if i+1 < len(s) && s[i+1] == '"' {
				b.WriteByte('"')
				i++
				continue
			}
			return b.String(), s[i+1:], nil
		}
		return "", "", fmt.Errorf("unterminated quoted name")
	}
	i := 0
	for i < len(s) {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80) {
			break
		}
		i++
	}
	return s[:i], s[i:], nil
}

// PrivilegeName is the name aclexplode gives a privilege letter; "" for
// none.
func PrivilegeName(letter byte) string {
	for _, p := range aclPrivilegeLetters {
		if p.letter == letter {
			return p.name
		}
	}
	return ""
}

// Grants is what a caller may see of the grants on the objects it sees,
// as PostgreSQL's access privileges; nil entries are NULL (no grant seen).
type Grants interface {
	// Relation is the grantees' entries of a table or view (not the
	// owner's).
	Relation(namespace, name string, view bool) []ACLItem
	// Namespace is the grantees' entries of a schema.
	Namespace(name string) []ACLItem
	// Database is the grantees' entries of a database (a catalog).
	Database(name string) []ACLItem
	// Grantees are the users and roles the grants name, as grantees or
	// grantors, for pg_roles to resolve the OIDs of aclexplode.
	Grantees() []Grantee
}

// Grantee is a user (a login role) or a role that grants name.
type Grantee struct {
	Name  string
	Login bool
}

// aclDefaults are acldefault's privileges of PUBLIC and of the owner per
// object type abbreviation, as PostgreSQL 15 has them, except that on a
// database PUBLIC holds CONNECT only: SQE has no temporary tables.
var aclDefaults = map[byte][2]string{
	'r': {"", "arwdDxt"}, 's': {"", "rwU"}, 'f': {"X", "X"}, 'l': {"U", "U"},
	'L': {"", "rw"}, 'n': {"", "UC"}, 't': {"", "C"}, 'F': {"", "U"},
	'S': {"", "U"}, 'T': {"U", "U"}, 'd': {"c", "CTc"}, 'p': {"", "sA"},
}

// ACLDefault is acldefault(kind, owner): PUBLIC's default entry, if any,
// then the owner's; false for an unknown kind.
func ACLDefault(kind byte, owner string) ([]ACLItem, bool) {
	d, ok := aclDefaults[kind]
	if !ok {
		return nil, false
	}
	var out []ACLItem
	if d[0] != "" {
		out = append(out, ACLItem{Grantor: owner, Privileges: d[0]})
	}
	return append(out, ACLItem{Grantee: owner, Grantor: owner, Privileges: d[1]}), true
}

// objectACL is an object's aclitem[] as text: NULL (nil) when there are
// no grantees' entries, otherwise acldefault's entries and then theirs.
func objectACL(kind byte, entries []ACLItem) any {
	if len(entries) == 0 {
		return nil
	}
	def, _ := ACLDefault(kind, ownerName)
	out := make([]string, 0, len(def)+len(entries))
	for _, e := range append(def, entries...) {
		out = append(out, e.String())
	}
	return out
}

// systemACL is the aclitem[] PostgreSQL gives its system catalogs and
// their schemas: the owner's default privileges and PUBLIC's SELECT
// (relations) or USAGE (schemas), which is what SQE grants everyone on
// them.
func systemACL(kind byte) any {
	public := ACLItem{Grantor: ownerName, Privileges: "r"}
	if kind == 'n' {
		public.Privileges = "U"
	}
	def, _ := ACLDefault(kind, ownerName)
	return []string{def[0].String(), public.String()}
}

// sourceGrants is the caller's Grants, nil when the server keeps none
// (every ACL is then NULL).
func sourceGrants(ctx context.Context, src Source) (Grants, error) {
	g, err := src.Grants(ctx)
	if err != nil {
		return nil, fmt.Errorf("list grants: %w", err)
	}
	return g, nil
}

// tablePrivilegeLetters are the privileges information_schema lists for
// tables and views.
const tablePrivilegeLetters = "arwdDxt"

// relationEntries are a relation's aclitems as aclexplode(coalesce(relacl,
// acldefault('r', relowner))) sees them: the owner's defaults at least.
func relationEntries(grants Grants, r relInfo) []ACLItem {
	def, _ := ACLDefault('r', ownerName)
	if !r.user {
		return append(def, ACLItem{Grantor: ownerName, Privileges: "r"})
	}
	if grants == nil {
		return def
	}
	return append(def, grants.Relation(r.namespace.name, r.name, r.kind == 'v')...)
}

// tablePrivilegeRows is information_schema.table_privileges: one row per
// privilege of each aclitem of the tables and views the caller sees,
// where PostgreSQL's view keeps it: the grantor or the grantee is the
// caller or one of its roles, or the grantee is PUBLIC; a superuser, who
// has every role, sees every row.
func tablePrivilegeRows(ctx context.Context, src Source) ([]row, error) {
	return privilegeRows(ctx, src, true, false)
}

// roleTableGrantRows is information_schema.role_table_grants: the rows of
// table_privileges whose grantor or grantee is an enabled role of the
// caller (not PUBLIC).
func roleTableGrantRows(ctx context.Context, src Source) ([]row, error) {
	return privilegeRows(ctx, src, false, false)
}

// columnPrivilegeRows is information_schema.column_privileges: SQE has no
// column grants, so as in PostgreSQL for a table without them, each
// column has the SELECT, INSERT, UPDATE and REFERENCES its table's
// aclitems give, under table_privileges' rule of who sees a row. A
// column gate two denies a caller is absent from that caller's view only:
// an administrator sees the grantee's table privileges on every column.
func columnPrivilegeRows(ctx context.Context, src Source) ([]row, error) {
	return privilegeRows(ctx, src, true, true)
}

// roleColumnGrantRows is information_schema.role_column_grants: the rows
// of column_privileges whose grantor or grantee is an enabled role of the
// caller.
func roleColumnGrantRows(ctx context.Context, src Source) ([]row, error) {
	return privilegeRows(ctx, src, false, true)
}

// columnPrivilegeLetters are the privileges a column can hold.
const columnPrivilegeLetters = "arwx"

// privilegeRows lists table (or, with columns, column) privileges; public
// keeps PUBLIC's rows.
func privilegeRows(ctx context.Context, src Source, public, columns bool) ([]row, error) {
	rels, err := allRelations(ctx, src)
	if err != nil {
		return nil, err
	}
	grants, err := sourceGrants(ctx, src)
	if err != nil {
		return nil, err
	}
	mine := func(name string) bool {
		return src.Superuser() || name == src.User() || (name != "" && slices.Contains(src.Roles(), name))
	}
	letters := tablePrivilegeLetters
	if columns {
		letters = columnPrivilegeLetters
	}
	var out []row
	for _, r := range rels {
		if r.kind != 'r' && r.kind != 'v' {
			continue
		}
		for _, e := range relationEntries(grants, r) {
			if !mine(e.Grantor) && !mine(e.Grantee) && !(public && e.Grantee == "") {
				continue
			}
			grantee := e.Grantee
			if grantee == "" {
				grantee = "PUBLIC"
			}
			for _, p := range aclPrivilegeLetters {
				if strings.IndexByte(letters, p.letter) < 0 || strings.IndexByte(e.Privileges, p.letter) < 0 {
					continue
				}
				// The owner may grant whatever it holds.
				grantable := yesNo(strings.IndexByte(e.GrantOptions, p.letter) >= 0 || e.Grantee == ownerName)
				base := row{
					"grantor": e.Grantor, "grantee": grantee, "table_catalog": src.Database(),
					"table_schema": r.namespace.name, "table_name": r.name, "privilege_type": p.name,
					"is_grantable": grantable,
				}
				if !columns {
					base["with_hierarchy"] = yesNo(p.letter == 'r')
					out = append(out, base)
					continue
				}
				for _, c := range r.columns {
					cr := maps.Clone(base)
					cr["column_name"] = c.Name
					out = append(out, cr)
				}
			}
		}
	}
	return out, nil
}

// yesNo is information_schema's yes_or_no.
func yesNo(b bool) string {
	if b {
		return "YES"
	}
	return "NO"
}

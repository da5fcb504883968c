package ranger

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// The bindings a condition script is given, as Ranger's
// RangerRequestScriptEvaluator gives them: ctx (the request, with
// Ranger's methods), tag (the tag a tag policy is evaluated for, or
// null), tagAttr (its attributes) and, for scripts that name them, the
// JSON view of the request (_ctx and its short names REQ, RES, USER, UG,
// UGA, UGNAMES, URNAMES, TAG, TAGS, TAGNAMES).

// scriptView is what a script sees of the request: the caller's groups
// and roles sorted, its attributes with _name, and the resource's tags by
// type, each with _type and _matchType.
type scriptView struct {
	ec         *evalContext
	user       string
	groups     []string
	roles      []string
	userAttrs  map[string]string
	groupAttrs map[string]map[string]string
	tags       []ResourceTag
	tagNames   []string
	tagMaps    map[string]map[string]string
}

func newScriptView(ec *evalContext) *scriptView {
	req := ec.req
	v := &scriptView{ec: ec, user: req.User}
	v.groups = slices.Sorted(slices.Values(req.Groups))
	v.roles = slices.Sorted(slices.Values(ec.userRoles()))
	v.userAttrs = maps.Clone(req.UserAttributes)
	if v.userAttrs == nil {
		v.userAttrs = map[string]string{}
	}
	v.userAttrs["_name"] = req.User
	v.groupAttrs = map[string]map[string]string{}
	for _, g := range v.groups {
		attrs := maps.Clone(req.GroupAttributes[g])
		if attrs == nil {
			attrs = map[string]string{}
		}
		attrs["_name"] = g
		v.groupAttrs[g] = attrs
	}
	v.tags = ec.requestTags()
	v.tagMaps = map[string]map[string]string{}
	for i := range v.tags {
		v.tagMaps[v.tags[i].Type] = tagMap(&v.tags[i])
	}
	v.tagNames = slices.Sorted(maps.Keys(v.tagMaps))
	return v
}

func tagMap(t *ResourceTag) map[string]string {
	m := maps.Clone(t.Attributes)
	if m == nil {
		m = map[string]string{}
	}
	m["_type"] = t.Type
	m["_matchType"] = tagMatchType(t).String()
	return m
}

// jsonContext is Ranger's toJson(): the request, the tags and the
// current tag.
func (v *scriptView) jsonContext(resourceOrder []string) (string, error) {
	req := v.ec.req
	resource := map[string]any{}
	for k, vals := range req.Resource {
		if len(vals) == 1 {
			resource[k] = vals[0]
		} else {
			resource[k] = vals
		}
	}
	resource["_ownerUser"] = nullable(req.Owner)
	uga := map[string]map[string]any{"sVal": {}, "mVal": {}}
	for _, g := range v.groups {
		for _, k := range slices.Sorted(maps.Keys(req.GroupAttributes[g])) {
			val := req.GroupAttributes[g][k]
			if _, ok := uga["sVal"][k]; !ok {
				uga["sVal"][k] = val
			}
			list, _ := uga["mVal"][k].([]string)
			uga["mVal"][k] = append(list, val)
		}
	}
	request := map[string]any{
		"accessTime":            v.ec.now.UnixMilli(),
		"accessType":            req.AccessType,
		"action":                nullable(req.Action),
		"clientIPAddress":       nullable(req.ClientIPAddress),
		"clientType":            nullable(req.ClientType),
		"clusterName":           nullable(req.ClusterName),
		"clusterType":           nullable(req.ClusterType),
		"forwardedAddresses":    req.ForwardedAddresses,
		"remoteIPAddress":       nullable(req.RemoteIPAddress),
		"requestData":           nullable(req.RequestData),
		"resource":              resource,
		"resourceMatchingScope": "SELF",
		"user":                  req.User,
		"userGroups":            nonNil(v.groups),
		"userRoles":             nonNil(v.roles),
		"userAttributes":        v.userAttrs,
		"userGroupAttributes":   v.groupAttrs,
		"uga":                   uga,
	}
	tag := map[string]string{}
	if v.ec.tag != nil {
		tag = tagMap(v.ec.tag)
	}
	b, err := json.Marshal(map[string]any{"request": request, "tags": v.tagMaps, "tagNames": nonNil(v.tagNames), "tag": tag})
	if err != nil {
		return "", fmt.Errorf("condition script context: %w", err)
	}
	return string(b), nil
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// bindScriptContext sets the bindings of one evaluation and returns ctx.
func bindScriptContext(vm *goja.Runtime, ec *evalContext, withJSON bool) (*goja.Object, error) {
	v := newScriptView(ec)
	ctx := vm.NewObject()
	b := scriptBinder{vm: vm, v: v, ctx: ctx}
	b.bindMethods()
	if err := ctx.Set("result", false); err != nil {
		return nil, err
	}
	var tag, tagAttr goja.Value = goja.Null(), javaMap(vm, nil)
	if ec.tag != nil {
		tag = tagObject(vm, ec.tag)
		tagAttr = javaMap(vm, ec.tag.Attributes)
	}
	for name, val := range map[string]goja.Value{"ctx": ctx, "tag": tag, "tagAttr": tagAttr} {
		if err := vm.Set(name, val); err != nil {
			return nil, err
		}
	}
	if withJSON {
		js, err := v.jsonContext(ec.resourceOrder)
		if err != nil {
			return nil, err
		}
		if err := vm.Set("_ctx_json", js); err != nil {
			return nil, err
		}
	}
	return ctx, nil
}

// javaMap is a string map as Nashorn shows a Java Map: its entries as
// properties, and get, containsKey, keySet, size and isEmpty.
func javaMap(vm *goja.Runtime, m map[string]string) *goja.Object {
	o := vm.NewObject()
	for _, k := range slices.Sorted(maps.Keys(m)) {
		_ = o.Set(k, m[k])
	}
	hidden := func(name string, f func(goja.FunctionCall) goja.Value) {
		_ = o.DefineDataProperty(name, vm.ToValue(f), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	hidden("get", func(c goja.FunctionCall) goja.Value {
		if val, ok := m[c.Argument(0).String()]; ok {
			return vm.ToValue(val)
		}
		return goja.Null()
	})
	hidden("containsKey", func(c goja.FunctionCall) goja.Value {
		_, ok := m[c.Argument(0).String()]
		return vm.ToValue(ok)
	})
	hidden("keySet", func(goja.FunctionCall) goja.Value { return stringArray(vm, slices.Sorted(maps.Keys(m))) })
	hidden("size", func(goja.FunctionCall) goja.Value { return vm.ToValue(len(m)) })
	hidden("isEmpty", func(goja.FunctionCall) goja.Value { return vm.ToValue(len(m) == 0) })
	return o
}

// tagObject is Ranger's RangerTagForEval as a script sees it.
func tagObject(vm *goja.Runtime, t *ResourceTag) *goja.Object {
	o := vm.NewObject()
	attrs := javaMap(vm, t.Attributes)
	mt := tagMatchType(t).String()
	_ = o.Set("type", t.Type)
	_ = o.Set("attributes", attrs)
	_ = o.Set("matchType", mt)
	_ = o.Set("getType", func(goja.FunctionCall) goja.Value { return vm.ToValue(t.Type) })
	_ = o.Set("getAttributes", func(goja.FunctionCall) goja.Value { return attrs })
	_ = o.Set("getMatchType", func(goja.FunctionCall) goja.Value { return vm.ToValue(mt) })
	return o
}

func stringArray(vm *goja.Runtime, s []string) goja.Value {
	items := make([]any, len(s))
	for i, x := range s {
		items[i] = x
	}
	return vm.NewArray(items...)
}

func orNull(vm *goja.Runtime, s string, ok bool) goja.Value {
	if !ok {
		return goja.Null()
	}
	return vm.ToValue(s)
}

// scriptBinder defines ctx's methods.
type scriptBinder struct {
	vm  *goja.Runtime
	v   *scriptView
	ctx *goja.Object
}

func (b *scriptBinder) fn(name string, f func(c goja.FunctionCall) goja.Value) {
	_ = b.ctx.Set(name, f)
}

func (b *scriptBinder) bindMethods() {
	vm, v, ec := b.vm, b.v, b.v.ec
	req := ec.req
	str := func(s string) goja.Value { return orNull(vm, s, s != "") }
	b.fn("getUser", func(goja.FunctionCall) goja.Value { return str(req.User) })
	b.fn("getUserGroups", func(goja.FunctionCall) goja.Value { return stringArray(vm, v.groups) })
	b.fn("getUserRoles", func(goja.FunctionCall) goja.Value { return stringArray(vm, v.roles) })
	b.fn("getAccessType", func(goja.FunctionCall) goja.Value { return str(req.AccessType) })
	b.fn("isAccessTypeAny", func(goja.FunctionCall) goja.Value { return vm.ToValue(req.isAny()) })
	b.fn("isAccessTypeDelegatedAdmin", func(goja.FunctionCall) goja.Value { return vm.ToValue(req.AccessType == AdminAccess) })
	b.fn("getAction", func(goja.FunctionCall) goja.Value { return str(req.Action) })
	b.fn("getRequestData", func(goja.FunctionCall) goja.Value { return str(req.RequestData) })
	b.fn("getClientIPAddress", func(goja.FunctionCall) goja.Value { return str(req.ClientIPAddress) })
	b.fn("getClientType", func(goja.FunctionCall) goja.Value { return str(req.ClientType) })
	b.fn("getSessionId", func(goja.FunctionCall) goja.Value { return goja.Null() })
	b.fn("getResourceZone", func(goja.FunctionCall) goja.Value { return vm.ToValue("") })
	b.fn("getResource", func(goja.FunctionCall) goja.Value { return str(resourceString(req.Resource, ec.resourceOrder)) })
	b.fn("getAccessTime", func(goja.FunctionCall) goja.Value {
		d, err := vm.New(vm.Get("Date"), vm.ToValue(ec.now.UnixMilli()))
		if err != nil {
			panic(err)
		}
		return d
	})
	b.fn("getRequestContextAttribute", func(c goja.FunctionCall) goja.Value {
		val, ok := ec.contextValue(c.Argument(0).String())
		return orNull(vm, val, ok)
	})
	b.fn("getResult", func(goja.FunctionCall) goja.Value { return vm.ToValue(b.ctx.Get("result").ToBoolean()) })
	b.fn("setResult", func(c goja.FunctionCall) goja.Value {
		_ = b.ctx.Set("result", c.Argument(0).ToBoolean())
		return goja.Undefined()
	})

	// Tags.
	cur := func() *ResourceTag { return ec.tag }
	b.fn("getCurrentTag", func(goja.FunctionCall) goja.Value {
		if t := cur(); t != nil {
			return tagObject(vm, t)
		}
		return goja.Null()
	})
	b.fn("getCurrentTagType", func(goja.FunctionCall) goja.Value {
		if t := cur(); t != nil {
			return vm.ToValue(t.Type)
		}
		return goja.Null()
	})
	b.fn("getAllTagTypes", func(goja.FunctionCall) goja.Value {
		if len(v.tags) == 0 {
			return goja.Null()
		}
		return stringArray(vm, v.tagNames)
	})
	firstTag := func(typ string) *ResourceTag {
		for i := range v.tags {
			if v.tags[i].Type == typ {
				return &v.tags[i]
			}
		}
		return nil
	}
	b.fn("getTagAttributes", func(c goja.FunctionCall) goja.Value {
		if t := firstTag(c.Argument(0).String()); t != nil {
			return javaMap(vm, t.Attributes)
		}
		return goja.Null()
	})
	b.fn("getTagAttributesForAllMatchingTags", func(c goja.FunctionCall) goja.Value {
		if t := firstTag(c.Argument(0).String()); t != nil {
			return vm.NewArray(javaMap(vm, t.Attributes))
		}
		return goja.Null()
	})
	b.fn("getAttributeNames", func(c goja.FunctionCall) goja.Value {
		if t := firstTag(c.Argument(0).String()); t != nil {
			return stringArray(vm, slices.Sorted(maps.Keys(t.Attributes)))
		}
		return goja.Null()
	})
	// getAttributeValue(attr) reads the current tag; (type, attr) the
	// first tag of that type.
	attrValue := func(c goja.FunctionCall) (string, bool) {
		if len(c.Arguments) >= 2 {
			t := firstTag(c.Argument(0).String())
			if t == nil {
				return "", false
			}
			val, ok := t.Attributes[c.Argument(1).String()]
			return val, ok
		}
		if t := cur(); t != nil {
			val, ok := t.Attributes[c.Argument(0).String()]
			return val, ok
		}
		return "", false
	}
	b.fn("getAttributeValue", func(c goja.FunctionCall) goja.Value {
		val, ok := attrValue(c)
		return orNull(vm, val, ok)
	})
	b.fn("getAttributeValueForAllMatchingTags", func(c goja.FunctionCall) goja.Value {
		val, ok := attrValue(goja.FunctionCall{Arguments: c.Arguments[:min(len(c.Arguments), 2)]})
		if !ok || len(c.Arguments) < 2 {
			return goja.Null()
		}
		return stringArray(vm, []string{val})
	})
	asDate := func(s string, ok bool) goja.Value {
		t, parsed := parseTagDate(s)
		if !ok || !parsed {
			return goja.Null()
		}
		d, err := vm.New(vm.Get("Date"), vm.ToValue(t.UnixMilli()))
		if err != nil {
			panic(err)
		}
		return d
	}
	b.fn("getAsDate", func(c goja.FunctionCall) goja.Value { return asDate(c.Argument(0).String(), true) })
	b.fn("getTagAttributeAsDate", func(c goja.FunctionCall) goja.Value { return asDate(attrValue(c)) })
	// isAccessedAfter / isAccessedBefore compare the access time with a
	// tag attribute's date; an attribute missing or unreadable counts as
	// a date already passed, as in Ranger.
	passed := func(c goja.FunctionCall) bool {
		s, ok := attrValue(c)
		date, parsed := parseTagDate(s)
		return !ok || !parsed || !ec.now.Before(date)
	}
	b.fn("isAccessedAfter", func(c goja.FunctionCall) goja.Value { return vm.ToValue(passed(c)) })
	b.fn("isAccessedBefore", func(c goja.FunctionCall) goja.Value {
		s, ok := attrValue(c)
		date, parsed := parseTagDate(s)
		return vm.ToValue(ok && parsed && !ec.now.After(date))
	})
	b.fn("hasTag", func(c goja.FunctionCall) goja.Value {
		_, ok := v.tagMaps[c.Argument(0).String()]
		return vm.ToValue(ok)
	})
	b.fn("hasAnyTag", func(goja.FunctionCall) goja.Value { return vm.ToValue(len(v.tagMaps) > 0) })
	b.fn("hasTagAttr", func(c goja.FunctionCall) goja.Value {
		name := c.Argument(0).String()
		for i := range v.tags {
			if _, ok := v.tags[i].Attributes[name]; ok {
				return vm.ToValue(true)
			}
		}
		return vm.ToValue(false)
	})

	// Users, groups and roles.
	b.fn("hasUserAttr", func(c goja.FunctionCall) goja.Value {
		_, ok := v.userAttrs[c.Argument(0).String()]
		return vm.ToValue(ok)
	})
	b.fn("hasUgAttr", func(c goja.FunctionCall) goja.Value {
		name := c.Argument(0).String()
		for _, attrs := range v.groupAttrs {
			if _, ok := attrs[name]; ok {
				return vm.ToValue(true)
			}
		}
		return vm.ToValue(false)
	})
	b.fn("isInGroup", func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(slices.Contains(v.groups, c.Argument(0).String()))
	})
	b.fn("isInRole", func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(slices.Contains(v.roles, c.Argument(0).String()))
	})
	b.fn("isInAnyGroup", func(goja.FunctionCall) goja.Value { return vm.ToValue(len(v.groups) > 0) })
	b.fn("isInAnyRole", func(goja.FunctionCall) goja.Value { return vm.ToValue(len(v.roles) > 0) })

	// Access time windows.
	between := func(from, to, zone goja.Value) goja.Value {
		ok, err := accessTimeBetween(ec.now, optString(from), optString(to), optString(zone))
		if err != nil {
			panic(vm.NewTypeError(err.Error()))
		}
		return vm.ToValue(ok)
	}
	b.fn("isAccessTimeAfter", func(c goja.FunctionCall) goja.Value { return between(c.Argument(0), nil, c.Argument(1)) })
	b.fn("isAccessTimeBefore", func(c goja.FunctionCall) goja.Value { return between(nil, c.Argument(0), c.Argument(1)) })
	b.fn("isAccessTimeBetween", func(c goja.FunctionCall) goja.Value {
		return between(c.Argument(0), c.Argument(1), c.Argument(2))
	})

	// The lists as text: (default, separator[, open quote[, close quote]]).
	b.csvFamily("tagNames", func() []string { return v.tagNames })
	b.csvFamily("tagAttrNames", v.tagAttrNames)
	b.csvFamily("ugNames", func() []string { return v.groups })
	b.csvFamily("ugAttrNames", v.ugAttrNames)
	b.csvFamily("urNames", func() []string { return v.roles })
	b.csvFamily("userAttrNames", v.userAttrNames)
	b.csvAttr("tagAttr", v.tagAttr)
	b.csvAttr("ugAttr", v.ugAttr)
	b.csvAttr("userAttr", func(name string) []string {
		if val, ok := v.userAttrs[name]; ok {
			return []string{val}
		}
		return nil
	})

	for _, name := range []string{"logDebug", "logInfo", "logWarn", "logError", "logFatal"} {
		b.fn(name, func(goja.FunctionCall) goja.Value { return goja.Undefined() })
	}
}

// csvFamily defines name, nameQ, nameCsv and nameCsvQ over a list.
func (b *scriptBinder) csvFamily(name string, list func() []string) {
	vm := b.vm
	b.fn(name, func(c goja.FunctionCall) goja.Value { return vm.ToValue(toCSV(list(), c.Arguments, false)) })
	b.fn(name+"Q", func(c goja.FunctionCall) goja.Value { return vm.ToValue(toCSV(list(), c.Arguments, true)) })
	b.fn(name+"Csv", func(goja.FunctionCall) goja.Value {
		return vm.ToValue(toCSV(list(), []goja.Value{goja.Null(), vm.ToValue(",")}, false))
	})
	b.fn(name+"CsvQ", func(goja.FunctionCall) goja.Value {
		return vm.ToValue(toCSV(list(), []goja.Value{goja.Null(), vm.ToValue(","), vm.ToValue("'")}, true))
	})
}

// csvAttr defines name(attr, ...), nameQ, nameCsv and nameCsvQ over the
// values of an attribute.
func (b *scriptBinder) csvAttr(name string, values func(string) []string) {
	vm := b.vm
	rest := func(c goja.FunctionCall) []goja.Value {
		if len(c.Arguments) > 1 {
			return c.Arguments[1:]
		}
		return nil
	}
	b.fn(name, func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(toCSV(values(c.Argument(0).String()), rest(c), false))
	})
	b.fn(name+"Q", func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(toCSV(values(c.Argument(0).String()), rest(c), true))
	})
	b.fn(name+"Csv", func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(toCSV(values(c.Argument(0).String()), []goja.Value{goja.Null(), vm.ToValue(",")}, false))
	})
	b.fn(name+"CsvQ", func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(toCSV(values(c.Argument(0).String()), []goja.Value{goja.Null(), vm.ToValue(","), vm.ToValue("'")}, true))
	})
}

// toCSV is Ranger's toCsv / toCsvQ: args are the default value (when the
// list is empty), the separator (","), and for quoted lists the open and
// close quotes ("'").
func toCSV(values []string, args []goja.Value, quoted bool) string {
	arg := func(i int) (string, bool) {
		if i >= len(args) || args[i] == nil || goja.IsUndefined(args[i]) || goja.IsNull(args[i]) {
			return "", false
		}
		return args[i].String(), true
	}
	sep := ","
	if len(args) > 1 {
		sep, _ = arg(1)
	}
	open, closing := "", ""
	if quoted {
		open = "'"
		if len(args) > 2 {
			open, _ = arg(2)
		}
		closing = open
		if c, ok := arg(3); ok {
			closing = c
		}
	}
	var sb strings.Builder
	for _, val := range values {
		if sb.Len() > 0 {
			sb.WriteString(sep)
		}
		sb.WriteString(open + val + closing)
	}
	if sb.Len() == 0 {
		if def, ok := arg(0); ok {
			sb.WriteString(open + def + closing)
		}
	}
	return sb.String()
}

func (v *scriptView) tagAttrNames() []string {
	names := map[string]struct{}{}
	for _, m := range v.tagMaps {
		for k := range m {
			names[k] = struct{}{}
		}
	}
	delete(names, "_type")
	delete(names, "_matchType")
	return slices.Sorted(maps.Keys(names))
}

func (v *scriptView) ugAttrNames() []string {
	names := map[string]struct{}{}
	for _, m := range v.groupAttrs {
		for k := range m {
			names[k] = struct{}{}
		}
	}
	delete(names, "_name")
	return slices.Sorted(maps.Keys(names))
}

func (v *scriptView) userAttrNames() []string {
	names := slices.Sorted(maps.Keys(v.userAttrs))
	return slices.DeleteFunc(names, func(n string) bool { return n == "_name" })
}

func (v *scriptView) tagAttr(name string) []string {
	var out []string
	for _, t := range v.tagNames {
		if val, ok := v.tagMaps[t][name]; ok {
			out = append(out, val)
		}
	}
	return out
}

func (v *scriptView) ugAttr(name string) []string {
	var out []string
	for _, g := range v.groups {
		if val, ok := v.groupAttrs[g][name]; ok {
			out = append(out, val)
		}
	}
	return out
}

func optString(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return ""
	}
	return v.String()
}

// resourceString is the resource as Ranger's getAsString writes it: the
// values of its levels in hierarchy order, joined by "/".
func resourceString(r Resource, order []string) string {
	var parts []string
	for _, level := range order {
		if vals, ok := r[level]; ok {
			parts = append(parts, strings.Join(vals, ","))
		}
	}
	return strings.Join(parts, "/")
}

// accessTimeLayouts are the formats of isAccessTimeAfter / Before /
// Between, longest first (Ranger's RangerTimeRangeChecker).
var accessTimeLayouts = []string{"2006/01/02 15:04:05", "2006/01/02 15:04", "2006/01/02"}

// accessTimeBetween reports whether now lies in [from, to) (an empty
// bound is open), the bounds read in zone (UTC when empty).
func accessTimeBetween(now time.Time, from, to, zone string) (bool, error) {
	loc := time.UTC
	if zone != "" {
		l, err := time.LoadLocation(zone)
		if err != nil {
			return false, fmt.Errorf("time zone %q is unknown", zone)
		}
		loc = l
	}
	parse := func(s string) (time.Time, error) {
		for _, layout := range accessTimeLayouts {
			if t, err := time.ParseInLocation(layout, strings.TrimSpace(s), loc); err == nil {
				return t, nil
			}
		}
		return time.Time{}, fmt.Errorf("time %q: want yyyy/MM/dd[ HH:mm[:ss]]", s)
	}
	if from != "" {
		t, err := parse(from)
		if err != nil {
			return false, err
		}
		if now.Before(t) {
			return false, nil
		}
	}
	if to != "" {
		t, err := parse(to)
		if err != nil {
			return false, err
		}
		if !now.Before(t) {
			return false, nil
		}
	}
	return true, nil
}

// parseTagDate reads the date formats Ranger accepts in tag attributes.
// A "yyyy/MM/dd" date may be followed by anything, as Java's lenient
// parsing allows.
func parseTagDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	for _, layout := range []string{"2006-01-02T15:04:05.000Z07:00", time.RFC3339, "2006/01/02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	for _, layout := range []string{"2006/01/02", "2006-01-02"} {
		if len(s) >= len(layout) {
			if t, err := time.Parse(layout, s[:len(layout)]); err == nil {
				return t, true
			}
		}
	}
	return time.Time{}, false
}

package ranger

import (
	"strings"
	"time"
)

// A small, closed subset of the JavaScript Ranger's script conditions are
// written in, compiled once:
//
//	TAG.level == 'normal' && USER.dept != 'hr'
//	if ( ctx.isAccessedBefore('expiry') ) ctx.result = true;
//
// Values are strings, booleans and null; TAG.x reads an attribute of the
// tag being evaluated (TAG._type its type), USER.x an attribute of the
// user (USER._name the user); ctx.isAccessedBefore / isAccessedAfter
// compare the access time with a date attribute of the tag. Anything else
// is refused when the evaluator is built, so a policy never silently
// depends on a script that was not understood.

// scriptExpr is a compiled script expression.
type scriptExpr interface {
	eval(ec *evalContext) scriptValue
}

type valueKind int

const (
	kindNull valueKind = iota
	kindString
	kindBool
)

type scriptValue struct {
	kind valueKind
	s    string
	b    bool
}

func (v scriptValue) truthy() bool {
	switch v.kind {
	case kindBool:
		return v.b
	case kindString:
		return v.s != ""
	}
	return false
}

func boolValue(b bool) scriptValue { return scriptValue{kind: kindBool, b: b} }

type literalExpr struct{ v scriptValue }

func (e literalExpr) eval(*evalContext) scriptValue { return e.v }

type notExpr struct{ x scriptExpr }

func (e notExpr) eval(ec *evalContext) scriptValue { return boolValue(!e.x.eval(ec).truthy()) }

type andExpr struct{ l, r scriptExpr }

func (e andExpr) eval(ec *evalContext) scriptValue {
	return boolValue(e.l.eval(ec).truthy() && e.r.eval(ec).truthy())
}

type orExpr struct{ l, r scriptExpr }

func (e orExpr) eval(ec *evalContext) scriptValue {
	return boolValue(e.l.eval(ec).truthy() || e.r.eval(ec).truthy())
}

type equalExpr struct {
	l, r   scriptExpr
	negate bool
}

func (e equalExpr) eval(ec *evalContext) scriptValue {
	a, b := e.l.eval(ec), e.r.eval(ec)
	eq := a.kind == b.kind && a.s == b.s && a.b == b.b
	return boolValue(eq != e.negate)
}

// tagAttrExpr is TAG.name; TAG._type is the tag's type.
type tagAttrExpr struct{ name string }

func (e tagAttrExpr) eval(ec *evalContext) scriptValue {
	if ec.tag == nil {
		return scriptValue{}
	}
	if e.name == "_type" {
		return scriptValue{kind: kindString, s: ec.tag.Type}
	}
	if v, ok := ec.tag.Attributes[e.name]; ok {
		return scriptValue{kind: kindString, s: v}
	}
	return scriptValue{}
}

// userAttrExpr is USER.name; USER._name is the user.
type userAttrExpr struct{ name string }

func (e userAttrExpr) eval(ec *evalContext) scriptValue {
	if e.name == "_name" {
		return scriptValue{kind: kindString, s: ec.req.User}
	}
	if v, ok := ec.req.UserAttributes[e.name]; ok {
		return scriptValue{kind: kindString, s: v}
	}
	return scriptValue{}
}

// accessedExpr is ctx.isAccessedAfter(attr) or ctx.isAccessedBefore(attr).
// As in Ranger, a missing or unreadable date counts as already passed.
type accessedExpr struct {
	attr  string
	after bool
}

func (e accessedExpr) eval(ec *evalContext) scriptValue {
	var date time.Time
	ok := false
	if ec.tag != nil {
		date, ok = parseTagDate(ec.tag.Attributes[e.attr])
	}
	passed := !ok || !ec.now.Before(date)
	if e.after {
		return boolValue(passed)
	}
	return boolValue(!passed)
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

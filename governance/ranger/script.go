package ranger

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// Condition scripts are JavaScript, as in Ranger, run by goja (an
// ECMAScript interpreter in pure Go) in a sandbox:
//
//   - no I/O: a runtime has only the ECMAScript built-ins and the bindings
//     Ranger gives a script (ctx, tag, tagAttr and, when the script names
//     them, _ctx, REQ, RES, USER, UG, UGA, UGNAMES, URNAMES, TAG, TAGS,
//     TAGNAMES); there is no require, console, timer or file access, and
//     typed arrays, ArrayBuffer, DataView, Reflect and Proxy are removed;
//   - time: each evaluation of the policy's script is interrupted after
//     scriptTimeout of wall-clock time, and its call stack is capped at
//     scriptMaxCallStack frames;
//   - memory: goja has no heap limit. Every evaluation gets a runtime of
//     its own (so nothing a script stores outlives it or reaches another
//     request), a script may be at most scriptMaxSize bytes, and the
//     built-ins that allocate or loop natively, where the interrupt cannot
//     reach them (String repeat, padStart and padEnd, the Array
//     constructor, Array.from and Array.of, every Array.prototype method,
//     Function.prototype.apply), refuse strings and arrays of more than
//     scriptMaxElements. What remains is what interpreted code can allocate
//     before the interrupt, and native regular expressions, which the
//     interrupt does not stop either.
//
// A script is compiled once, when the evaluator is built for a policy
// version, after Ranger's macros (IS_IN_GROUP, HAS_TAG, ...) and [[x]]
// lists are expanded as Ranger expands them; one that does not compile
// makes its policy refused. A script that throws or is interrupted has
// no result: the condition reports an error and its item fails closed.
const (
	scriptTimeout      = 100 * time.Millisecond
	scriptMaxCallStack = 256
	scriptMaxSize      = 64 << 10
	scriptMaxElements  = 1 << 20
)

// scriptGuards replaces the natively looping built-ins with ones that
// refuse inputs of more than the limit, and removes the built-ins a
// condition has no use for that allocate in bulk.
const scriptGuards = `(function (limit) {
  var apply = Reflect.apply, define = Object.defineProperty;
  function big(n) { n = Number(n); return n > limit; }
  function lengthOf(x) { return x == null ? 0 : x.length; }
  function guard(obj, key, size) {
    var f = obj[key];
    if (typeof f !== 'function') { return; }
    define(obj, key, { value: function () {
      if (big(size(this, arguments))) { throw new RangeError('condition script: more than ' + limit + ' elements'); }
      return apply(f, this, arguments);
    }, writable: true, configurable: true });
  }
  var sp = String.prototype;
  guard(sp, 'repeat', function (s, a) { return String(s).length * Number(a[0]); });
  guard(sp, 'padStart', function (s, a) { return a[0]; });
  guard(sp, 'padEnd', function (s, a) { return a[0]; });
  var ap = Array.prototype;
  Object.getOwnPropertyNames(ap).forEach(function (k) {
    if (k !== 'constructor' && k !== 'length') { guard(ap, k, function (s) { return lengthOf(s); }); }
  });
  Object.getOwnPropertySymbols(ap).forEach(function (k) {
    guard(ap, k, function (s) { return lengthOf(s); });
  });
  guard(Function.prototype, 'apply', function (s, a) { return lengthOf(a[1]); });
  var A = Array;
  var G = function Array() {
    if (arguments.length === 1 && big(arguments[0])) { throw new RangeError('condition script: more than ' + limit + ' elements'); }
    return apply(A, undefined, arguments);
  };
  G.prototype = A.prototype;
  G.isArray = A.isArray;
  G.from = function (x) {
    if (big(lengthOf(x))) { throw new RangeError('condition script: more than ' + limit + ' elements'); }
    return apply(A.from, A, arguments);
  };
  G.of = function () { return apply(A.of, A, arguments); };
  define(A.prototype, 'constructor', { value: G, writable: true, configurable: true });
  Array = G;
})(%d);`

// scriptRemovedGlobals are the built-ins a condition has no use for that
// allocate in bulk or reach around the guards.
var scriptRemovedGlobals = []string{"ArrayBuffer", "SharedArrayBuffer", "DataView", "Int8Array", "Uint8Array",
	"Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array",
	"BigInt64Array", "BigUint64Array", "Reflect", "Proxy"}

// scriptJSONPrelude is Ranger's SCRIPT_PREEXEC: the JSON view of the
// request, and the short names scripts use for its parts.
const scriptJSONPrelude = `_ctx=JSON.parse(_ctx_json); J=JSON.stringify; REQ=_ctx.request; RES=REQ.resource;` +
	` USER=REQ.userAttributes; UGNAMES=REQ.userGroups; UG=REQ.userGroupAttributes; UGA=REQ.uga;` +
	` URNAMES=REQ.userRoles; TAG=_ctx.tag; TAGS=_ctx.tags; TAGNAMES=_ctx.tagNames;`

// scriptPolyfillIntersects is Ranger's polyfill for Array.prototype
// .intersects, added when a script calls it.
const scriptPolyfillIntersects = `if (!Array.prototype.intersects) { Object.defineProperty(Array.prototype, 'intersects', { value: function (x) {
  if (x == null) { return false; }
  var o = Object(this); var len = o.length >>> 0;
  if (len === 0) { return false; }
  return o.filter(function (n) { return x.indexOf(n) > -1; }).length != 0; } }); }`

// jsonContextNames are the bindings the JSON prelude defines: a script
// naming one of them needs it (Ranger's needsJsonCtxEnabled).
var jsonContextNames = regexp.MustCompile(`\b(_ctx|REQ|RES|TAG|TAGNAMES|TAGS|UGA|UG|UGNAMES|URNAMES|USER)\b`)

// scriptRuntime holds the programs every script evaluation runs: they
// are compiled once per evaluator.
type scriptRuntime struct {
	guards, prelude, intersects *goja.Program
	// cache holds each script compiled, by its text.
	cache map[string]*scriptProgram
}

func newScriptRuntime() (*scriptRuntime, error) {
	var rt scriptRuntime
	var err error
	if rt.guards, err = goja.Compile("guards", fmt.Sprintf(scriptGuards, scriptMaxElements), false); err != nil {
		return nil, fmt.Errorf("condition script guards: %w", err)
	}
	if rt.prelude, err = goja.Compile("prelude", scriptJSONPrelude, false); err != nil {
		return nil, fmt.Errorf("condition script prelude: %w", err)
	}
	if rt.intersects, err = goja.Compile("intersects", scriptPolyfillIntersects, false); err != nil {
		return nil, fmt.Errorf("condition script polyfill: %w", err)
	}
	rt.cache = map[string]*scriptProgram{}
	return &rt, nil
}

// scriptProgram is one condition script, compiled.
type scriptProgram struct {
	rt   *scriptRuntime
	prog *goja.Program
	// jsonContext: the script is given the JSON view of the request.
	jsonContext bool
	intersects  bool
}

// compile compiles a script as Ranger runs it: macros expanded, [[x]]
// lists turned into splits. jsonContext, when not nil, is the condition
// definition's enableJsonCtx option; otherwise the view is given to the
// scripts that name one of its bindings.
func (rt *scriptRuntime) compile(src string, jsonContext *bool) (*scriptProgram, error) {
	if len(src) > scriptMaxSize {
		return nil, fmt.Errorf("script of %d bytes: at most %d are accepted", len(src), scriptMaxSize)
	}
	src = replaceDoubleBrackets(expandScriptMacros(src))
	key := src
	if jsonContext != nil {
		key = fmt.Sprintf("%t\x00%s", *jsonContext, src)
	}
	if p, ok := rt.cache[key]; ok {
		return p, nil
	}
	prog, err := goja.Compile("condition", src, false)
	if err != nil {
		return nil, fmt.Errorf("script does not compile: %w", err)
	}
	p := &scriptProgram{rt: rt, prog: prog, intersects: strings.Contains(src, ".intersects(")}
	if jsonContext != nil {
		p.jsonContext = *jsonContext
	} else {
		p.jsonContext = jsonContextNames.MatchString(src)
	}
	rt.cache[key] = p
	return p, nil
}

// errScriptTimeout is the interrupt of a script that ran too long.
var errScriptTimeout = errors.New("condition script: ran longer than its time bound")

// run evaluates the script for a request, with Ranger's result: the
// script's value when it is a boolean, else what it set ctx.result to
// (false when it did not).
func (p *scriptProgram) run(ec *evalContext) (bool, error) {
	vm := goja.New()
	vm.SetMaxCallStackSize(scriptMaxCallStack)
	ctx, err := bindScriptContext(vm, ec, p.jsonContext)
	if err != nil {
		return false, scriptError(err)
	}
	if _, err := vm.RunProgram(p.rt.guards); err != nil {
		return false, scriptError(err)
	}
	for _, name := range scriptRemovedGlobals {
		if err := vm.GlobalObject().Delete(name); err != nil {
			return false, scriptError(err)
		}
	}
	if p.jsonContext {
		if _, err := vm.RunProgram(p.rt.prelude); err != nil {
			return false, scriptError(err)
		}
	}
	if p.intersects {
		if _, err := vm.RunProgram(p.rt.intersects); err != nil {
			return false, scriptError(err)
		}
	}
	// The bound is the policy's script's: the set-up above is SQE's own,
	// and on a loaded machine it alone could eat a wall-clock bound.
	timer := time.AfterFunc(scriptTimeout, func() { vm.Interrupt(errScriptTimeout) })
	v, err := vm.RunProgram(p.prog)
	timer.Stop()
	if err != nil {
		return false, scriptError(err)
	}
	if v != nil {
		if b, ok := v.Export().(bool); ok {
			return b, nil
		}
	}
	return ctx.Get("result").ToBoolean(), nil
}

// scriptError says how a script failed without repeating its message,
// which may quote the request's values (a thrown attribute, say).
func scriptError(err error) error {
	var interrupted *goja.InterruptedError
	var overflow *goja.StackOverflowError
	var exception *goja.Exception
	switch {
	case errors.As(err, &interrupted):
		return errScriptTimeout
	case errors.As(err, &overflow):
		return errors.New("condition script: call stack exhausted")
	case errors.As(err, &exception):
		return errors.New("condition script: threw an exception")
	}
	return errors.New("condition script: failed")
}

// scriptMacros are Ranger's condition macros
// (RangerRequestScriptEvaluator.getMacrosMap).
var scriptMacros = map[string]string{
	"GET_TAG_NAMES":          "ctx.tagNames",
	"GET_TAG_NAMES_Q":        "ctx.tagNamesQ",
	"GET_TAG_ATTR_NAMES":     "ctx.tagAttrNames",
	"GET_TAG_ATTR_NAMES_Q":   "ctx.tagAttrNamesQ",
	"GET_TAG_ATTR":           "ctx.tagAttr",
	"GET_TAG_ATTR_Q":         "ctx.tagAttrQ",
	"GET_UG_NAMES":           "ctx.ugNames",
	"GET_UG_NAMES_Q":         "ctx.ugNamesQ",
	"GET_UG_ATTR_NAMES":      "ctx.ugAttrNames",
	"GET_UG_ATTR_NAMES_Q":    "ctx.ugAttrNamesQ",
	"GET_UG_ATTR":            "ctx.ugAttr",
	"GET_UG_ATTR_Q":          "ctx.ugAttrQ",
	"GET_UR_NAMES":           "ctx.urNames",
	"GET_UR_NAMES_Q":         "ctx.urNamesQ",
	"GET_USER_ATTR_NAMES":    "ctx.userAttrNames",
	"GET_USER_ATTR_NAMES_Q":  "ctx.userAttrNamesQ",
	"GET_USER_ATTR":          "ctx.userAttr",
	"GET_USER_ATTR_Q":        "ctx.userAttrQ",
	"GET_TAG_ATTR_CSV":       "ctx.tagAttrCsv",
	"GET_TAG_ATTR_Q_CSV":     "ctx.tagAttrCsvQ",
	"GET_UG_ATTR_CSV":        "ctx.ugAttrCsv",
	"GET_UG_ATTR_Q_CSV":      "ctx.ugAttrCsvQ",
	"TAG_ATTR_NAMES_CSV":     "ctx.tagAttrNamesCsv()",
	"TAG_ATTR_NAMES_Q_CSV":   "ctx.tagAttrNamesCsvQ()",
	"TAG_NAMES_CSV":          "ctx.tagNamesCsv()",
	"TAG_NAMES_Q_CSV":        "ctx.tagNamesCsvQ()",
	"UG_ATTR_NAMES_CSV":      "ctx.ugAttrNamesCsv()",
	"UG_ATTR_NAMES_Q_CSV":    "ctx.ugAttrNamesCsvQ()",
	"UG_NAMES_CSV":           "ctx.ugNamesCsv()",
	"UG_NAMES_Q_CSV":         "ctx.ugNamesCsvQ()",
	"UR_NAMES_CSV":           "ctx.urNamesCsv()",
	"UR_NAMES_Q_CSV":         "ctx.urNamesCsvQ()",
	"USER_ATTR_NAMES_CSV":    "ctx.userAttrNamesCsv()",
	"USER_ATTR_NAMES_Q_CSV":  "ctx.userAttrNamesCsvQ()",
	"HAS_TAG":                "ctx.hasTag",
	"HAS_ANY_TAG":            "ctx.hasAnyTag()",
	"HAS_NO_TAG":             "!ctx.hasAnyTag()",
	"HAS_USER_ATTR":          "ctx.hasUserAttr",
	"HAS_UG_ATTR":            "ctx.hasUgAttr",
	"HAS_TAG_ATTR":           "ctx.hasTagAttr",
	"IS_IN_GROUP":            "ctx.isInGroup",
	"IS_IN_ROLE":             "ctx.isInRole",
	"IS_IN_ANY_GROUP":        "ctx.isInAnyGroup()",
	"IS_IN_ANY_ROLE":         "ctx.isInAnyRole()",
	"IS_NOT_IN_ANY_GROUP":    "!ctx.isInAnyGroup()",
	"IS_NOT_IN_ANY_ROLE":     "!ctx.isInAnyRole()",
	"IS_ACCESS_TIME_AFTER":   "ctx.isAccessTimeAfter",
	"IS_ACCESS_TIME_BEFORE":  "ctx.isAccessTimeBefore",
	"IS_ACCESS_TIME_BETWEEN": "ctx.isAccessTimeBetween",
}

// scriptMacroPattern matches a macro as a whole word, as Ranger's
// MacroProcessor does (anywhere in the script, string literals included).
var scriptMacroPattern = func() *regexp.Regexp {
	names := make([]string, 0, len(scriptMacros))
	for name := range scriptMacros {
		names = append(names, name)
	}
	return regexp.MustCompile(`\b(` + strings.Join(names, "|") + `)\b`)
}()

func expandScriptMacros(src string) string {
	return scriptMacroPattern.ReplaceAllStringFunc(src, func(m string) string { return scriptMacros[m] })
}

// doubleBrackets is Ranger's JavaScriptEdits pattern: [[x]] or
// [[x,'sep']] is x split on the separator (a comma by default).
var doubleBrackets = regexp.MustCompile(`\[\[([}{\$"a-zA-Z0-9_.\[\]]+)(\,['"](.+?)['"])*\]\]`)

func replaceDoubleBrackets(src string) string {
	if !strings.Contains(src, "[[") || !strings.Contains(src, "]]") {
		return src
	}
	out := src
	for _, m := range doubleBrackets.FindAllStringSubmatch(src, -1) {
		sep := m[3]
		if m[2] == "" {
			sep = ","
		}
		out = strings.ReplaceAll(out, m[0], m[1]+`.split("`+sep+`")`)
	}
	return out
}

package exec_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// argProbe is one argument type the registry's signatures are probed with,
// and how a query writes a typical value of it and its NULL.
type argProbe struct {
	name string
	typ  types.T
	// value is a typical non-NULL value as SQL; "" for the untyped
	// literal, whose text follows the type the signature converts it to.
	value string
	null  string
}

var argProbes = []argProbe{
	{"boolean", types.Bool, "true", "NULL::boolean"},
	{"smallint", types.Int2, "2::smallint", "NULL::smallint"},
	{"integer", types.Int4, "3", "NULL::integer"},
	{"bigint", types.Int8, "4::bigint", "NULL::bigint"},
	{"numeric", types.T{OID: types.OIDNumeric, Scale: 1}, "1.5", "NULL::numeric"},
	{"real", types.Float4, "0.5::real", "NULL::real"},
	{"double precision", types.Float8, "0.5::double precision", "NULL::double precision"},
	{"text", types.Text, "'ab'::text", "NULL::text"},
	{"varchar", types.Varchar, "'ab'::varchar", "NULL::varchar"},
	{"bytea", types.Bytea, `'\x0102'::bytea`, "NULL::bytea"},
	{"date", types.Date, "date '2024-01-02'", "NULL::date"},
	{"time", types.Time, "time '12:34:56'", "NULL::time"},
	{"timestamp", types.Timestamp, "timestamp '2024-01-02 03:04:05'", "NULL::timestamp"},
	{"timestamptz", types.TimestampTZ, "timestamptz '2024-01-02 03:04:05+00'", "NULL::timestamptz"},
	{"interval", types.Interval, "interval '1 day 2 hours'", "NULL::interval"},
	{"json", types.JSON, `'{"a":[1,2]}'::json`, "NULL::json"},
	{"jsonb", types.JSONB, `'{"a":[1,2]}'::jsonb`, "NULL::jsonb"},
	{"text[]", types.TextArray, "ARRAY['a','b']", "NULL::text[]"},
	{"integer[]", types.Int4Array, "ARRAY[1,2]", "NULL::integer[]"},
	{"unknown", types.Unknown, "", "NULL"},
}

// untypedValue is the text of an untyped literal the signature converts
// to type t.
func untypedValue(t types.T) string {
	switch t.Family() {
	case types.FamilyInt:
		return "'2'"
	case types.FamilyNumeric:
		return "'1.5'"
	case types.FamilyFloat:
		return "'0.5'"
	}
	switch t.OID {
	case types.OIDBool:
		return "'true'"
	case types.OIDBytea:
		return `'\x0102'`
	case types.OIDDate:
		return "'2024-01-02'"
	case types.OIDTime:
		return "'12:34:56'"
	case types.OIDTimestamp, types.OIDTimestampTZ:
		return "'2024-01-02 03:04:05'"
	case types.OIDInterval:
		return "'1 day'"
	case types.OIDJSON, types.OIDJSONB:
		return `'{"a":[1,2]}'`
	case types.OIDTextArray:
		return "'{a,b}'"
	case types.OIDInt4Array:
		return "'{1,2}'"
	}
	return "'ab'"
}

// zeroValues replaces the typical values of functions whose typical
// values would make the test slow: pg_sleep sleeps for no time.
var zeroValues = map[string]bool{"pg_sleep": true}

func (p argProbe) literal(fn string, converted types.T) string {
	if zeroValues[fn] {
		if p.typ.OID == types.OIDUnknown {
			return "'0'"
		}
		return "0::" + p.name
	}
	if p.value == "" {
		return untypedValue(converted)
	}
	return p.value
}

// maxProbedArity is the most arguments a function is probed with: the
// longest signature (regexp_instr, make_interval, make_timestamptz) has
// seven.
const maxProbedArity = 7

// callCase is one call to execute: the probes of its arguments and the
// types the signature converts them to.
type callCase struct {
	args      []argProbe
	converted []types.T
}

// acceptedCalls finds the argument lists resolve accepts and keeps a few
// that together give every arity, every argument type at each of the
// first three positions, and every argument type anywhere. Lists of up
// to two arguments are tried exhaustively; a longer list extends a kept
// shorter one by one argument, or is one type repeated.
func acceptedCalls(resolve func([]types.T) ([]types.T, types.T, bool)) []callCase {
	covered := map[string]bool{}
	var kept []callCase
	consider := func(args []argProbe) bool {
		ts := make([]types.T, len(args))
		for i, a := range args {
			ts[i] = a.typ
		}
		converted, _, ok := resolve(ts)
		if !ok {
			return false
		}
		keys := []string{fmt.Sprintf("arity %d", len(args))}
		for i, a := range args {
			keys = append(keys, "any "+a.name)
			if i < 3 {
				keys = append(keys, fmt.Sprintf("%d %s", i, a.name))
			}
		}
		isNew := false
		for _, k := range keys {
			if !covered[k] {
				covered[k], isNew = true, true
			}
		}
		if isNew {
			kept = append(kept, callCase{args: append([]argProbe(nil), args...), converted: converted})
		}
		return true
	}
	consider(nil)
	for _, a := range argProbes {
		consider([]argProbe{a})
	}
	for _, a := range argProbes {
		for _, b := range argProbes {
			consider([]argProbe{a, b})
		}
	}
	for n := 3; n <= maxProbedArity; n++ {
		var shorter []callCase
		for _, c := range kept {
			if len(c.args) == n-1 {
				shorter = append(shorter, c)
			}
		}
		for _, c := range shorter {
			for _, a := range argProbes {
				consider(append(append([]argProbe(nil), c.args...), a))
			}
		}
		for _, a := range argProbes {
			same := make([]argProbe, n)
			for i := range same {
				same[i] = a
			}
			consider(same)
		}
	}
	return kept
}

// checkCall runs sql and fails the test unless it gives a result or a
// PostgreSQL error that is neither internal (XX000) nor "not supported"
// (0A000); a call the signature accepted must also bind (no 42883). bound
// is false when the call did not bind (42883, or 42804 for operands of
// the wrong type).
func checkCall(t *testing.T, sql string, mustBind bool) (bound bool) {
	t.Helper()
	bound, _ = runCall(t, sql, mustBind)
	return bound
}

// runCall is checkCall that also reports whether the call gave a value.
func runCall(t *testing.T, sql string, mustBind bool) (bound, value bool) {
	t.Helper()
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		// The calls read no table.
		_, _, err = runQuery(t, &memTable{name: "t"}, sql)
	}()
	if err == nil {
		return true, true
	}
	switch code := pgerror.Code(err); code {
	case pgerror.InternalError, pgerror.FeatureNotSupported:
		t.Errorf("%s: %s %v", sql, code, err)
	case pgerror.UndefinedFunction, pgerror.DatatypeMismatch:
		if mustBind {
			t.Errorf("%s: accepted by the signature but does not bind: %v", sql, err)
		}
		return false, false
	}
	return true, false
}

// TestEveryRegisteredFunctionExecutes runs every scalar function and
// operator function the registry has on a row of each argument type its
// signature accepts (and once on NULLs): each call must give a value or
// a PostgreSQL error of its own, never an internal error or a missing
// kernel.
func TestEveryRegisteredFunctionExecutes(t *testing.T) {
	type callable struct {
		name    string
		call    func(args []string) string
		resolve func([]types.T) ([]types.T, types.T, bool)
	}
	var callables []callable
	for _, name := range functions.ScalarNames() {
		f, _ := functions.LookupScalar(name)
		callables = append(callables, callable{name: name, resolve: f.Resolve,
			call: func(args []string) string { return name + "(" + strings.Join(args, ", ") + ")" }})
	}
	for _, sym := range functions.InfixOperatorSymbols() {
		if op, ok := functions.LookupOperatorFunction(sym, false); ok {
			callables = append(callables, callable{name: sym, resolve: op.Resolve,
				call: func(args []string) string { return "(" + strings.Join(args, " "+sym+" ") + ")" }})
		}
	}
	for _, sym := range functions.PrefixOperatorSymbols() {
		if op, ok := functions.LookupOperatorFunction(sym, true); ok {
			callables = append(callables, callable{name: sym, resolve: op.Resolve,
				call: func(args []string) string { return "(" + sym + " " + strings.Join(args, ", ") + ")" }})
		}
	}
	calls, gaveValue := 0, 0
	typesRun := map[string]bool{}
	for _, c := range callables {
		cases := acceptedCalls(c.resolve)
		if len(cases) == 0 {
			t.Errorf("%s: accepts none of the probed argument types", c.name)
			continue
		}
		for _, cc := range cases {
			values := make([]string, len(cc.args))
			nulls := make([]string, len(cc.args))
			for i, a := range cc.args {
				values[i] = a.literal(c.name, cc.converted[i])
				nulls[i] = a.null
				typesRun[c.name+" "+a.name] = true
			}
			calls++
			if _, value := runCall(t, "SELECT "+c.call(values), true); value {
				gaveValue++
			}
			if len(cc.args) > 0 {
				checkCall(t, "SELECT "+c.call(nulls), false)
			}
		}
	}
	t.Logf("%d functions and operator functions, %d (function, argument type) pairs, %d calls (%d gave a value, the others a PostgreSQL error), each also on NULLs",
		len(callables), len(typesRun), calls, gaveValue)
}

// TestEveryOperatorExecutes runs every binary and prefix operator the
// registry has over every pair of probed types it binds: each must give
// a value or a PostgreSQL error of its own.
func TestEveryOperatorExecutes(t *testing.T) {
	var infix, prefix []string
	for _, sym := range functions.InfixOperatorSymbols() {
		if _, ok := functions.LookupOperatorFunction(sym, false); !ok {
			infix = append(infix, sym)
		}
	}
	for _, sym := range functions.PrefixOperatorSymbols() {
		if _, ok := functions.LookupOperatorFunction(sym, true); !ok {
			prefix = append(prefix, sym)
		}
	}
	pairs := map[string]int{}
	for _, sym := range infix {
		for _, l := range argProbes {
			for _, r := range argProbes {
				if l.value == "" && r.value == "" {
					continue
				}
				lv, rv := l.value, r.value
				if lv == "" {
					lv = "'1'"
				}
				if rv == "" {
					rv = "'1'"
				}
				if checkCall(t, fmt.Sprintf("SELECT %s %s %s", lv, sym, rv), false) {
					pairs[sym]++
					checkCall(t, fmt.Sprintf("SELECT %s %s %s", l.null, sym, r.null), false)
				}
			}
		}
	}
	for _, sym := range prefix {
		for _, a := range argProbes {
			if a.value != "" && checkCall(t, fmt.Sprintf("SELECT %s %s", sym, a.value), false) {
				pairs[sym]++
				checkCall(t, fmt.Sprintf("SELECT %s %s", sym, a.null), false)
			}
		}
	}
	var syms []string
	for sym, n := range pairs {
		syms = append(syms, fmt.Sprintf("%s:%d", sym, n))
	}
	sort.Strings(syms)
	for _, sym := range append(infix, prefix...) {
		if pairs[sym] == 0 {
			t.Errorf("operator %s binds on none of the probed types", sym)
		}
	}
	t.Logf("operators and the type pairs they bind: %s", strings.Join(syms, " "))
}

// TestEveryAggregateExecutes runs every aggregate the registry has over a
// row of each probed type it accepts (and over a NULL): each must give a
// value or a PostgreSQL error of its own.
func TestEveryAggregateExecutes(t *testing.T) {
	// The registry accepts min and max of every type, but the executor
	// has no min/max of these yet (XX000), so they are left out until
	// it has.
	minMaxMissing := map[string]bool{"bytea": true, "interval": true, "text[]": true, "integer[]": true}
	calls, gaveValue, skipped := 0, 0, 0
	for _, name := range functions.AggregateNames() {
		agg, _ := functions.LookupAggregate(name)
		call := func(v string) string {
			switch {
			case agg.Delimited:
				return name + "(" + v + ", ',')"
			case agg.Pair:
				return name + "('k', " + v + ")"
			case agg.Regression:
				return name + "(" + v + ", " + v + ")"
			case agg.OrderedSet:
				direct := strings.TrimSuffix(strings.Repeat("0.5, ", agg.Direct), ", ")
				return name + "(" + direct + ") WITHIN GROUP (ORDER BY " + v + ")"
			}
			return name + "(" + v + ")"
		}
		accepted := 0
		for _, p := range argProbes {
			if _, ok := agg.Result(p.typ); !ok || p.value == "" {
				continue
			}
			accepted++
			if (name == "min" || name == "max") && minMaxMissing[p.name] {
				skipped++
				continue
			}
			calls++
			if _, value := runCall(t, fmt.Sprintf("SELECT %s FROM (SELECT %s AS v) s", call("v"), p.value), true); value {
				gaveValue++
			}
			runCall(t, fmt.Sprintf("SELECT %s FROM (SELECT %s AS v) s", call("v"), p.null), true)
		}
		if agg.Star {
			calls++
			if _, value := runCall(t, "SELECT "+name+"(*) FROM (SELECT 1 AS v) s", true); value {
				gaveValue++
			}
		}
		if accepted == 0 {
			t.Errorf("aggregate %s accepts none of the probed argument types", name)
		}
	}
	t.Logf("%d aggregates, %d calls (%d gave a value), each also on a NULL; %d calls of min or max left out",
		len(functions.AggregateNames()), calls, gaveValue, skipped)
}

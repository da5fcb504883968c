package functions

import (
	"maps"
	"slices"
)

// ScalarNames lists every name LookupScalar finds, sorted, so that what
// the binder accepts can be checked against what the executor runs.
func ScalarNames() []string {
	out := slices.AppendSeq(slices.Collect(maps.Keys(scalars)), maps.Keys(numericScalars))
	slices.Sort(out)
	return out
}

// AggregateNames lists every name LookupAggregate finds, sorted.
func AggregateNames() []string { return slices.Sorted(maps.Keys(aggregates)) }

// InfixOperatorSymbols lists the binary operators the binder accepts,
// sorted: the typed operators (LookupOperator, but NOT), the operator
// functions (LookupOperatorFunction), the pattern operators
// (LookupPatternOp) and the text_pattern_ops comparisons.
func InfixOperatorSymbols() []string {
	var out []string
	for sym := range operators {
		if sym != "NOT" {
			out = append(out, sym)
		}
	}
	out = slices.AppendSeq(out, maps.Keys(infixOperatorFunctions))
	out = slices.AppendSeq(out, maps.Keys(patternOps))
	out = slices.AppendSeq(out, maps.Keys(patternComparisons))
	slices.Sort(out)
	return out
}

// PrefixOperatorSymbols lists the prefix operators of LookupOperator and
// LookupOperatorFunction, sorted.
func PrefixOperatorSymbols() []string {
	out := append(slices.Collect(maps.Keys(prefixOperatorFunctions)), "NOT")
	slices.Sort(out)
	return out
}

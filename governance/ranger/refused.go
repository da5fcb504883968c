package ranger

import (
	"errors"
	"slices"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// RefusedPolicy is a policy the evaluator cannot evaluate as Ranger
// would: a condition of a type or evaluator SQE lacks, a script that
// does not compile, a validity schedule it cannot read. It is not
// ignored, which would grant what its deny items deny or drop its masks:
// it fails closed. Wherever its resources (or, for a tag policy, its
// tag) apply, access is denied, whoever asks and whatever its items say,
// and a mask or row filter it could give makes EvalDataMask, EvalDataMasks,
// EvalRowFilter and EvalRowFilters fail. Evaluator.Refused lists them, so
// that the caller can log and count them when the policies are loaded.
type RefusedPolicy struct {
	ID   int64
	Name string
	// ByTag is true for a tag policy.
	ByTag bool
	// Reason says what could not be evaluated; it quotes the policy, never
	// a request.
	Reason string
}

// Refused lists the policies the evaluator refused, service policies
// first.
func (e *Evaluator) Refused() []RefusedPolicy {
	out := slices.Clone(e.refused)
	for _, z := range e.zones {
		out = append(out, z.eval.Refused()...)
	}
	return out
}

// compileOrRefuse compiles a policy, or, when only its conditions or
// schedules cannot be evaluated, a refused policy in its place. Any
// other error is returned.
func (c *policyCompiler) compileOrRefuse(p *Policy) (*compiledPolicy, error) {
	cp, err := c.compile(p)
	var u *unevaluableError
	if errors.As(err, &u) {
		return &compiledPolicy{id: p.ID, name: p.Name, priority: p.PolicyPriority, audit: p.AuditEnabled(), refused: u.Error()}, nil
	}
	return cp, err
}

// refuse records a refused policy.
func (e *Evaluator) refuse(cp *compiledPolicy, byTag bool) {
	if cp.refused != "" {
		e.refused = append(e.refused, RefusedPolicy{ID: cp.id, Name: cp.name, ByTag: byTag, Reason: cp.refused})
	}
}

// refusedError is the error of a mask or row filter a refused policy
// would give.
func refusedError(p *compiledPolicy) error {
	return pgerror.New(pgerror.InsufficientPrivilege, "policy %d cannot be evaluated (%s)", p.id, p.refused)
}

// conditionError is the error of a mask or row filter search in which a
// policy was refused or a condition could not be evaluated.
func conditionError(err error) error {
	var pe *pgerror.Error
	if errors.As(err, &pe) {
		return err
	}
	return pgerror.Wrap(err, pgerror.InsufficientPrivilege, "a policy condition could not be evaluated: %v", err)
}

// policyHolds reports whether a policy's own conditions let it apply to
// the request. failed is set when they cannot be decided, or the policy
// is refused: the policy then applies, and denies.
func policyHolds(p *compiledPolicy, ec *evalContext) (applies, failed bool) {
	if p.refused != "" {
		return true, true
	}
	ok, err := conditionsHold(p.conds, ec)
	if err != nil {
		ec.fail(err)
		return true, true
	}
	return ok, false
}

// RefusedFor returns a refused policy that applies to the requested
// resource, ok false when none does: a resource policy whose resources
// match it, one of its ancestors or one of its descendants (a table's
// column), or a tag policy for one of the request's tags. Gate two asks
// it for a table before anything else, so that a refused policy on the
// table or any of its columns admits no row.
func (e *Evaluator) RefusedFor(req *Request) (RefusedPolicy, bool) {
	if z := e.evaluatorFor(req); z != e {
		return z.RefusedFor(req)
	}
	if len(e.refused) == 0 {
		return RefusedPolicy{}, false
	}
	for _, list := range [][]*compiledPolicy{e.access, e.masks, e.filters} {
		for _, p := range list {
			if p.refused != "" && p.matchType(req) != MatchNone {
				return RefusedPolicy{ID: p.id, Name: p.name, Reason: p.refused}, true
			}
		}
	}
	tags := e.tagsFor(req, true)
	for _, list := range [][]*compiledPolicy{e.tagAccess, e.tagMasks, e.tagFilters} {
		for _, p := range list {
			if p.refused == "" {
				continue
			}
			for i := range tags {
				if p.tag.isMatchValue(tags[i].Type, req) {
					return RefusedPolicy{ID: p.id, Name: p.name, ByTag: true, Reason: p.refused}, true
				}
			}
		}
	}
	return RefusedPolicy{}, false
}

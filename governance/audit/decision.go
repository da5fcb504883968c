package audit

import (
	"context"
	"sync"
)

// The gates a Decision comes from.
const (
	GateOne = "gate_one"
	GateTwo = "gate_two"
)

// Decision is one access decision a statement needed: gate one allowing
// or refusing an operation on a catalog object, or gate two applying a
// row filter, a mask or a column restriction to a table it reads. It
// names objects and policies, never data.
type Decision struct {
	Gate string `json:"gate"`
	// Access is what was decided: gate one's access type (select,
	// update, create...), or gate two's ROW_FILTER, a mask type
	// (MASK_SHOW_LAST_4...) or select for a restricted column.
	Access string `json:"access"`
	// Resource is the object, catalog/schema/table[/column], and
	// ResourceType "@table", "@column", "@schema" or "@catalog".
	Resource     string `json:"resource"`
	ResourceType string `json:"resource_type"`
	Allowed      bool   `json:"allowed"`
	// PolicyID is the deciding policy, -1 when none decided (an
	// administrator's default, a refusal no policy allowed, or gate two
	// failing closed); Enforcer names what decided.
	PolicyID int64  `json:"policy_id"`
	Enforcer string `json:"enforcer"`
	// Reason says why, when a policy id does not (administrator, fails
	// closed because ...).
	Reason string `json:"reason,omitempty"`
	// Count is how many times the statement needed this same decision.
	Count int64 `json:"count"`
}

// DecisionLog collects the decisions of one statement. Gates note into
// it through the statement's context (Note); it keeps each distinct
// decision once, with its count, as Ranger's audit counts repeated
// events.
type DecisionLog struct {
	mu   sync.Mutex
	list []Decision
}

type decisionLogKey struct{}

// WithDecisionLog returns ctx carrying log, into which Note records.
func WithDecisionLog(ctx context.Context, log *DecisionLog) context.Context {
	return context.WithValue(ctx, decisionLogKey{}, log)
}

// Note records d in the decision log of ctx, if it has one.
func Note(ctx context.Context, d Decision) {
	log, _ := ctx.Value(decisionLogKey{}).(*DecisionLog)
	if log == nil {
		return
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	for i := range log.list {
		e := &log.list[i]
		if e.Gate == d.Gate && e.Access == d.Access && e.Resource == d.Resource && e.Allowed == d.Allowed && e.PolicyID == d.PolicyID && e.Reason == d.Reason {
			e.Count++
			return
		}
	}
	d.Count = 1
	log.list = append(log.list, d)
}

// Decisions returns the decisions noted so far, in the order first
// noted.
func (l *DecisionLog) Decisions() []Decision {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Decision(nil), l.list...)
}

package pgformat

import "strings"

// dtNode is one compiled element of a date/time template.
type dtNode struct {
	kind   nodeKind
	suffix uint8  // sufFM | sufTM | sufTH | sufth | sufSP, for actions
	key    int16  // index into dtKeywords, for actions
	text   string // the literal character, for everything else
}

func (n *dtNode) keyword() *dtKeyword { return &dtKeywords[n.key] }

// DateTimeTemplate is a compiled to_char / to_timestamp / to_date template.
// It is immutable and may be shared between goroutines.
type DateTimeTemplate struct {
	nodes []dtNode
}

// ParseDateTime compiles a date/time template. PostgreSQL accepts every
// template string (unknown text is copied literally), so the error is
// reserved and currently always nil.
func ParseDateTime(format string) (*DateTimeTemplate, error) {
	t := &DateTimeTemplate{nodes: make([]dtNode, 0, len(format))}
	addChar := func(text string) {
		t.nodes = append(t.nodes, dtNode{kind: nodeChar, text: text})
	}
	s := format
	for len(s) > 0 {
		var suffix uint8
		switch {
		case strings.HasPrefix(s, "FM"), strings.HasPrefix(s, "fm"):
			suffix = sufFM
			s = s[2:]
		case strings.HasPrefix(s, "TM"), strings.HasPrefix(s, "tm"):
			suffix = sufTM
			s = s[2:]
		}
		if len(s) == 0 {
			break
		}
		if k := lookupDateTimeKeyword(s); k >= 0 {
			s = s[len(dtKeywords[k].name):]
			switch {
			case strings.HasPrefix(s, "TH"):
				suffix |= sufTH
				s = s[2:]
			case strings.HasPrefix(s, "th"):
				suffix |= sufth
				s = s[2:]
			case strings.HasPrefix(s, "SP"):
				suffix |= sufSP
				s = s[2:]
			}
			t.nodes = append(t.nodes, dtNode{kind: nodeAction, key: int16(k), suffix: suffix})
			continue
		}
		if s[0] == '"' {
			s = quotedNodes(s[1:], addChar)
			continue
		}
		var n dtNode
		n.kind, n.text, s = literalNode(s, true)
		t.nodes = append(t.nodes, n)
	}
	return t, nil
}

// Empty reports whether the template is the empty string, for which
// PostgreSQL's to_char(timestamp|interval, ”) returns NULL.
func (t *DateTimeTemplate) Empty() bool { return len(t.nodes) == 0 }

// ValidForInterval returns the error PostgreSQL raises when the template
// uses a calendar-bound pattern (day or month names, D, ID, AD/BC, time
// zone fields) with to_char(interval). AppendInterval prints nothing for
// such patterns, so callers check this once per query.
func (t *DateTimeTemplate) ValidForInterval() error {
	for i := range t.nodes {
		n := &t.nodes[i]
		if n.kind == nodeAction && !intervalAllows(n.keyword().id) {
			return errInvalidForInterval()
		}
	}
	return nil
}

func intervalAllows(id dtPattern) bool {
	switch id {
	case dtADDots, dtBCDots, dtAD, dtBC, dtadDots, dtbcDots, dtad, dtbc,
		dtMONTH, dtMonth, dtmonth, dtMON, dtMon, dtmon,
		dtDAY, dtDay, dtday, dtDY, dtDy, dtdy, dtD, dtID,
		dtTZ, dttz, dtTZH, dtTZM, dtOF:
		return false
	}
	return true
}

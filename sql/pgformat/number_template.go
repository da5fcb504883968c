package pgformat

// numPattern identifies a number template pattern.
type numPattern uint8

const (
	numComma numPattern = iota + 1
	numDec
	num0
	num9
	numB
	numC
	numD
	numE
	numFM
	numG
	numL
	numMI
	numPL
	numPR
	numRN
	numrn
	numSG
	numSP
	numS
	numTH
	numth
	numV
)

type numKeyword struct {
	name string
	id   numPattern
}

// numKeywords is searched in order; the first prefix match wins.
var numKeywords = [...]numKeyword{
	{",", numComma}, {".", numDec}, {"0", num0}, {"9", num9},
	{"B", numB}, {"C", numC}, {"D", numD}, {"EEEE", numE}, {"FM", numFM},
	{"G", numG}, {"L", numL}, {"MI", numMI}, {"PL", numPL}, {"PR", numPR},
	{"RN", numRN}, {"SG", numSG}, {"SP", numSP}, {"S", numS}, {"TH", numTH},
	{"V", numV},
	{"b", numB}, {"c", numC}, {"d", numD}, {"eeee", numE}, {"fm", numFM},
	{"g", numG}, {"l", numL}, {"mi", numMI}, {"pl", numPL}, {"pr", numPR},
	{"rn", numrn}, {"sg", numSG}, {"sp", numSP}, {"s", numS}, {"th", numth},
	{"v", numV},
}

// Flags describing the template as a whole (PostgreSQL's NUMDesc flags).
const (
	fDecimal uint16 = 1 << iota
	fLDecimal
	fZero
	fBlank
	fFillMode
	fLSign
	fBracket
	fMinus
	fPlus
	fRoman
	fMulti
	fPlusPost
	fMinusPost
	fEEEE
)

// Where a locale sign (S) goes relative to the digits.
const (
	lsignNone = iota
	lsignPre
	lsignPost
)

// numDesc summarises a number template: digit counts before and after the
// decimal point, where zero padding starts, and which sign style is used.
type numDesc struct {
	pre, post   int
	lsign       int
	preLsignNum int
	multi       int
	zeroStart   int
	zeroEnd     int
	flag        uint16
}

func (d *numDesc) has(f uint16) bool { return d.flag&f != 0 }

type numNode struct {
	kind nodeKind
	id   numPattern
	text string
}

// NumberTemplate is a compiled to_char(numeric) / to_number template. It
// is immutable and may be shared between goroutines.
type NumberTemplate struct {
	nodes []numNode
	desc  numDesc
}

// ParseNumber compiles a number template, rejecting the pattern
// combinations PostgreSQL rejects (SQLSTATE 42601).
func ParseNumber(format string) (*NumberTemplate, error) {
	t := &NumberTemplate{nodes: make([]numNode, 0, len(format))}
	addChar := func(text string) {
		t.nodes = append(t.nodes, numNode{kind: nodeChar, text: text})
	}
	s := format
	for len(s) > 0 {
		k := -1
		for i := range numKeywords {
			name := numKeywords[i].name
			if len(s) >= len(name) && s[:len(name)] == name {
				k = i
				break
			}
		}
		if k >= 0 {
			s = s[len(numKeywords[k].name):]
			id := numKeywords[k].id
			if err := t.desc.add(id); err != nil {
				return nil, err
			}
			t.nodes = append(t.nodes, numNode{kind: nodeAction, id: id})
			continue
		}
		if s[0] == '"' {
			s = quotedNodes(s[1:], addChar)
			continue
		}
		var n numNode
		n.kind, n.text, s = literalNode(s, false)
		t.nodes = append(t.nodes, n)
	}
	return t, nil
}

// add folds one pattern into the description (NUMDesc_prepare).
func (d *numDesc) add(id numPattern) error {
	if d.has(fEEEE) && id != numE {
		return errNumberSyntax("\"EEEE\" must be the last pattern used")
	}
	switch id {
	case num9:
		if d.has(fBracket) {
			return errNumberSyntax("\"9\" must be ahead of \"PR\"")
		}
		switch {
		case d.has(fMulti):
			d.multi++
		case d.has(fDecimal):
			d.post++
		default:
			d.pre++
		}
	case num0:
		if d.has(fBracket) {
			return errNumberSyntax("\"0\" must be ahead of \"PR\"")
		}
		if !d.has(fZero) && !d.has(fDecimal) {
			d.flag |= fZero
			d.zeroStart = d.pre + 1
		}
		if !d.has(fDecimal) {
			d.pre++
		} else {
			d.post++
		}
		d.zeroEnd = d.pre + d.post
	case numB:
		if d.pre == 0 && d.post == 0 && !d.has(fZero) {
			d.flag |= fBlank
		}
	case numD, numDec:
		if id == numD {
			d.flag |= fLDecimal
		}
		if d.has(fDecimal) {
			return errNumberSyntax("multiple decimal points")
		}
		if d.has(fMulti) {
			return errNumberSyntax("cannot use \"V\" and decimal point together")
		}
		d.flag |= fDecimal
	case numFM:
		d.flag |= fFillMode
	case numS:
		if d.has(fLSign) {
			return errNumberSyntax("cannot use \"S\" twice")
		}
		if d.has(fPlus) || d.has(fMinus) || d.has(fBracket) {
			return errNumberSyntax("cannot use \"S\" and \"PL\"/\"MI\"/\"SG\"/\"PR\" together")
		}
		if !d.has(fDecimal) {
			d.lsign = lsignPre
			d.preLsignNum = d.pre
			d.flag |= fLSign
		} else if d.lsign == lsignNone {
			d.lsign = lsignPost
			d.flag |= fLSign
		}
	case numMI:
		if d.has(fLSign) {
			return errNumberSyntax("cannot use \"S\" and \"MI\" together")
		}
		d.flag |= fMinus
		if d.has(fDecimal) {
			d.flag |= fMinusPost
		}
	case numPL:
		if d.has(fLSign) {
			return errNumberSyntax("cannot use \"S\" and \"PL\" together")
		}
		d.flag |= fPlus
		if d.has(fDecimal) {
			d.flag |= fPlusPost
		}
	case numSG:
		if d.has(fLSign) {
			return errNumberSyntax("cannot use \"S\" and \"SG\" together")
		}
		d.flag |= fMinus | fPlus
	case numPR:
		if d.has(fLSign) || d.has(fPlus) || d.has(fMinus) {
			return errNumberSyntax("cannot use \"PR\" and \"S\"/\"PL\"/\"MI\"/\"SG\" together")
		}
		d.flag |= fBracket
	case numRN, numrn:
		d.flag |= fRoman
	case numV:
		if d.has(fDecimal) {
			return errNumberSyntax("cannot use \"V\" and decimal point together")
		}
		d.flag |= fMulti
	case numE:
		if d.has(fEEEE) {
			return errNumberSyntax("cannot use \"EEEE\" twice")
		}
		if d.has(fBlank) || d.has(fFillMode) || d.has(fLSign) || d.has(fBracket) ||
			d.has(fMinus) || d.has(fPlus) || d.has(fRoman) || d.has(fMulti) {
			return errNumberSyntax("\"EEEE\" is incompatible with other formats").
				WithDetail("\"EEEE\" may only be used together with digit and decimal point patterns.")
		}
		d.flag |= fEEEE
	}
	return nil
}

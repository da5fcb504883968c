package pgformat

// numWriter renders the digits of a prepared number string through the
// template (PostgreSQL's NUM_processor in to_char mode). Output is appended
// to dst; a NUL that PostgreSQL would write into its C string ends the
// result there, which nul records.
type numWriter struct {
	desc         numDesc
	number       []byte // digits with optional '.', or '#' fill
	np           int    // next byte of number to print
	sign         byte   // '+', '-', or 0 for Roman numerals
	signWrote    bool
	numIn        bool // a significant digit has been printed
	numCurr      int
	numCount     int
	outPreSpaces int
	lastRelevant int // index in number of the last digit FM must keep, or -1
	nul          int // length of dst at the first NUL written, or -1
}

func (w *numWriter) put(dst []byte, c byte) []byte {
	if c == 0 && w.nul < 0 {
		w.nul = len(dst)
	}
	return append(dst, c)
}

// render runs the to_char side of the processor. number is the prepared
// digit string, outPreSpaces how many leading digit positions it leaves
// empty, and sign its sign.
func (t *NumberTemplate) render(dst []byte, desc numDesc, number []byte, outPreSpaces int, sign byte) []byte {
	w := numWriter{desc: desc, number: number, sign: sign, lastRelevant: -1, nul: -1}
	d := &w.desc
	if d.zeroStart > 0 {
		d.zeroStart--
	}
	if d.has(fEEEE) {
		// Scientific notation ignores everything but the digit counts.
		return append(dst, number...)
	}
	if d.has(fRoman) {
		fill := d.has(fFillMode)
		d.lsign, d.preLsignNum, d.post, d.pre = 0, 0, 0, 0
		outPreSpaces = 0
		d.flag = fRoman
		if fill {
			d.flag |= fFillMode
		}
	}
	fill := d.has(fFillMode)
	if d.has(fPlus) || d.has(fMinus) {
		// MI/PL/SG print the sign themselves.
		w.signWrote = !(d.has(fPlus) && !d.has(fMinus))
	} else {
		if w.sign != '-' && fill {
			d.flag &^= fBracket
		}
		w.signWrote = w.sign == '+' && fill && !d.has(fLSign)
		if d.lsign == lsignPre && d.pre == d.preLsignNum {
			d.lsign = lsignPost
		}
	}
	w.numCount = d.post + d.pre - 1
	w.outPreSpaces = outPreSpaces
	if fill && d.has(fDecimal) {
		w.lastRelevant = lastRelevantDecimal(number)
		// Keep digits printed by '0' patterns, but not past the number.
		if w.lastRelevant >= 0 && d.zeroEnd > w.outPreSpaces {
			lastZero := len(number) - 1
			if z := d.zeroEnd - w.outPreSpaces; z < lastZero {
				lastZero = z
			}
			if w.lastRelevant < lastZero {
				w.lastRelevant = lastZero
			}
		}
	}
	if !w.signWrote && w.outPreSpaces == 0 {
		w.numCount++
	}

	for i := range t.nodes {
		n := &t.nodes[i]
		if n.kind != nodeAction {
			dst = append(dst, n.text...)
			continue
		}
		switch n.id {
		case num9, num0, numDec, numD:
			dst = w.digit(dst, n.id)
		case numComma, numG:
			switch {
			case w.numIn:
				dst = append(dst, ',')
			case !fill:
				dst = append(dst, ' ')
			}
		case numL:
			dst = append(dst, ' ') // the C locale has no currency symbol
		case numRN, numrn:
			if !fill {
				for k := len(number); k < 15; k++ {
					dst = append(dst, ' ')
				}
			}
			if n.id == numrn {
				dst = appendLower(dst, number)
			} else {
				dst = append(dst, number...)
			}
		case numTH, numth:
			if d.has(fRoman) || (len(number) > 0 && number[0] == '#') || w.sign == '-' || d.has(fDecimal) {
				continue
			}
			if len(number) > 0 && isDigit(number[len(number)-1]) {
				dst = appendOrdinal(dst, number, n.id == numTH)
			}
		case numMI:
			switch {
			case w.sign == '-':
				dst = append(dst, '-')
			case !fill:
				dst = append(dst, ' ')
			}
		case numPL:
			switch {
			case w.sign == '+':
				dst = append(dst, '+')
			case !fill:
				dst = append(dst, ' ')
			}
		case numSG:
			dst = w.put(dst, w.sign)
		}
	}
	if w.nul >= 0 {
		dst = dst[:w.nul]
	}
	return dst
}

// predecSpace reports the "0.1" printed by "9.9" as " .1" case: the
// leading zero before the decimal point becomes a blank.
func (w *numWriter) predecSpace() bool {
	return !w.desc.has(fZero) && w.np == 0 && len(w.number) > 0 && w.number[0] == '0' && w.desc.post != 0
}

func (w *numWriter) lastRelevantIsPoint() bool {
	return w.lastRelevant >= 0 && w.lastRelevant < len(w.number) && w.number[w.lastRelevant] == '.'
}

func (w *numWriter) appendSign(dst []byte) []byte {
	if w.sign == '-' {
		return append(dst, '-')
	}
	return append(dst, '+')
}

// digit handles one 9, 0, '.' or D pattern (NUM_numpart_to_char).
func (w *numWriter) digit(dst []byte, id numPattern) []byte {
	d := &w.desc
	if d.has(fRoman) {
		return dst
	}
	fill := d.has(fFillMode)
	if !w.signWrote &&
		(w.numCurr >= w.outPreSpaces || (d.has(fZero) && d.zeroStart == w.numCurr)) &&
		(!w.predecSpace() || w.lastRelevantIsPoint()) {
		switch {
		case d.has(fLSign):
			if d.lsign == lsignPre {
				dst = w.appendSign(dst)
				w.signWrote = true
			}
		case d.has(fBracket):
			if w.sign == '+' {
				dst = append(dst, ' ')
			} else {
				dst = append(dst, '<')
			}
			w.signWrote = true
		case w.sign == '+':
			if !fill {
				dst = append(dst, ' ')
			}
			w.signWrote = true
		case w.sign == '-':
			dst = append(dst, '-')
			w.signWrote = true
		}
	}

	switch {
	case w.numCurr < w.outPreSpaces && (d.zeroStart > w.numCurr || !d.has(fZero)):
		if !fill {
			dst = append(dst, ' ')
		}
	case d.has(fZero) && w.numCurr < w.outPreSpaces && d.zeroStart <= w.numCurr:
		dst = append(dst, '0')
		w.numIn = true
	default:
		var c byte
		if w.np < len(w.number) {
			c = w.number[w.np]
		}
		switch {
		case c == '.':
			dst = append(dst, '.')
		case w.lastRelevant >= 0 && w.np > w.lastRelevant && id != num0:
			// FM drops trailing zeros after the last relevant digit.
		case w.predecSpace():
			if !fill {
				dst = append(dst, ' ')
			} else if w.lastRelevantIsPoint() {
				dst = append(dst, '0')
			}
		default:
			dst = w.put(dst, c)
			w.numIn = true
		}
		if w.np < len(w.number) {
			w.np++
		}
	}

	end := w.numCount
	if w.outPreSpaces > 0 {
		end++
	}
	if d.has(fDecimal) {
		end++
	}
	if w.lastRelevant >= 0 && w.lastRelevant == w.np {
		end = w.numCurr
	}
	if w.numCurr+1 == end {
		switch {
		case w.signWrote && d.has(fBracket):
			if w.sign == '+' {
				dst = append(dst, ' ')
			} else {
				dst = append(dst, '>')
			}
		case d.has(fLSign) && d.lsign == lsignPost:
			dst = w.appendSign(dst)
		}
	}
	w.numCurr++
	return dst
}

// lastRelevantDecimal returns the index of the last non-zero digit after
// the decimal point (or of the point itself), or -1 without a point.
func lastRelevantDecimal(num []byte) int {
	p := -1
	for i, c := range num {
		if c == '.' {
			p = i
			break
		}
	}
	if p < 0 {
		return -1
	}
	result := p
	for i := p + 1; i < len(num); i++ {
		if num[i] != '0' {
			result = i
		}
	}
	return result
}

package pgwire

import (
	"encoding/binary"
	"math/big"

	"github.com/sqe-db/sqe/sql/types"
)

// Encoders of the general numeric (types.NumericArray): each value with
// its own scale, NaN and ±Infinity.

type generalNumericText struct {
	arrayOf[*types.NumericArray]
}

func (e *generalNumericText) appendText(dst []byte, i int) []byte {
	return types.AppendNumericText(dst, e.arr.Bytes(i))
}

type generalNumericBinary struct {
	arrayOf[*types.NumericArray]
}

func (e *generalNumericBinary) appendBinary(dst []byte, i int) []byte {
	return appendGeneralNumericBinary(dst, e.arr.Bytes(i))
}

// Sign words of numeric_send's special values.
const (
	numericNaN    = 0xC000
	numericPosInf = 0xD000
	numericNegInf = 0xF000
)

// appendGeneralNumericBinary writes one encoded general numeric in
// numeric_send's format.
func appendGeneralNumericBinary(dst, enc []byte) []byte {
	if types.NumericIsSpecial(enc) {
		sign, dscale := uint16(numericNaN), uint16(0)
		switch types.NumericInfSign(enc) {
		case 1:
			sign = numericPosInf
		case -1:
			sign = numericNegInf
		}
		if sign != numericNaN {
			// PostgreSQL sends the dscale bits of the infinities' header.
			dscale = 0x20
		}
		dst = binary.BigEndian.AppendUint16(dst, 0)
		dst = binary.BigEndian.AppendUint16(dst, 0)
		dst = binary.BigEndian.AppendUint16(dst, sign)
		return binary.BigEndian.AppendUint16(dst, dscale)
	}
	neg := enc[0] == 1
	scale := int32(binary.BigEndian.Uint16(enc[1:3]))
	mag := enc[3:]
	if hi, lo, ok := types.NumericMagnitude128(mag, neg); ok {
		return appendNumericBinary(dst, hi, lo, scale)
	}
	return appendWideNumericBinary(dst, new(big.Int).SetBytes(mag).String(), neg, scale)
}

// appendWideNumericBinary writes a value of more than 38 digits, given
// as its decimal digits (most significant first) and scale.
func appendWideNumericBinary(dst []byte, digits string, neg bool, scale int32) []byte {
	// Pad so the digits split into base-10000 groups aligned on the
	// decimal point: the fraction to a multiple of 4, then the integer
	// part on the left.
	frac := int(scale)
	for len(digits) <= frac {
		digits = "0" + digits // an integer part of at least one digit
	}
	pad := (4 - frac%4) % 4
	for i := 0; i < pad; i++ {
		digits += "0"
	}
	intDigits := len(digits) - frac - pad
	lead := (4 - intDigits%4) % 4
	for i := 0; i < lead; i++ {
		digits = "0" + digits
	}
	groups := make([]uint16, 0, len(digits)/4)
	for i := 0; i+4 <= len(digits); i += 4 {
		g := uint16(0)
		for _, c := range digits[i : i+4] {
			g = g*10 + uint16(c-'0')
		}
		groups = append(groups, g)
	}
	weight := (intDigits+lead)/4 - 1
	for len(groups) > 0 && groups[0] == 0 {
		groups = groups[1:]
		weight--
	}
	for len(groups) > 0 && groups[len(groups)-1] == 0 {
		groups = groups[:len(groups)-1]
	}
	sign := uint16(numericPositive)
	if neg {
		sign = numericNegative
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(groups)))
	dst = binary.BigEndian.AppendUint16(dst, uint16(int16(weight)))
	dst = binary.BigEndian.AppendUint16(dst, sign)
	dst = binary.BigEndian.AppendUint16(dst, uint16(scale))
	for _, g := range groups {
		dst = binary.BigEndian.AppendUint16(dst, g)
	}
	return dst
}

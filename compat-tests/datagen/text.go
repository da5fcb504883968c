package datagen

import (
	"math/rand/v2"
	"strings"
)

// textPoolSize is the length of the text comments are cut from. The
// specification's generator uses a far larger pool; a megabyte keeps
// comments varied enough for LIKE predicates while costing little to build.
const textPoolSize = 1 << 20

// textPool is pseudo-English text built from fixed word lists with a fixed
// seed. Comments are substrings of it at random offsets, so picking one
// allocates nothing.
type textPool string

// newTextPool builds the pool: sentences of the shapes the specification's
// grammar produces (clause 4.2.2.14), joined by spaces.
func newTextPool() textPool {
	r := rand.New(rand.NewPCG(seedTextPool, seedTextPool))
	pick := func(words []string) string { return words[r.IntN(len(words))] }
	var b strings.Builder
	b.Grow(textPoolSize + 256)
	for b.Len() < textPoolSize {
		// noun phrase, verb phrase, and sometimes a prepositional phrase.
		if r.IntN(2) == 0 {
			b.WriteString(pick(poolAdjectives[:]) + " ")
		}
		b.WriteString(pick(poolNouns[:]) + " ")
		if r.IntN(3) == 0 {
			b.WriteString(pick(poolAdverbs[:]) + " ")
		}
		b.WriteString(pick(poolVerbs[:]))
		if r.IntN(3) == 0 {
			b.WriteString(" " + pick(poolPrepositions[:]) + " the " + pick(poolNouns[:]))
		}
		b.WriteString(pick(poolTerminators[:]) + " ")
	}
	return textPool(b.String()[:textPoolSize])
}

// text is a random piece of the pool, between minLen and maxLen bytes
// long, without leading or trailing blanks.
func (p textPool) text(g *rowRand, minLen, maxLen int) string {
	n := int(g.between(int64(minLen), int64(maxLen)))
	off := g.index(len(p) - n)
	return strings.TrimSpace(string(p[off : off+n]))
}

// vstringAlphabet is the alphabet of the specification's random v-strings.
const vstringAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789,. "

// vstring is a random string of vstringAlphabet characters, between minLen
// and maxLen long (addresses).
func vstring(g *rowRand, minLen, maxLen int) string {
	n := int(g.between(int64(minLen), int64(maxLen)))
	buf := make([]byte, n)
	for i := range buf {
		buf[i] = vstringAlphabet[g.index(len(vstringAlphabet))]
	}
	return string(buf)
}

// phone is a phone number whose country code follows from the nation
// (clause 4.2.2.9).
func phone(g *rowRand, nation int64) string {
	buf := make([]byte, 0, 15)
	buf = appendPadded(buf, nation+10, 2)
	buf = append(buf, '-')
	buf = appendPadded(buf, g.between(100, 999), 3)
	buf = append(buf, '-')
	buf = appendPadded(buf, g.between(100, 999), 3)
	buf = append(buf, '-')
	buf = appendPadded(buf, g.between(1000, 9999), 4)
	return string(buf)
}

// appendPadded appends v in decimal, zero-padded to width digits.
func appendPadded(buf []byte, v int64, width int) []byte {
	var digits [20]byte
	i := len(digits)
	for v > 0 || i == len(digits) {
		i--
		digits[i] = byte('0' + v%10)
		v /= 10
	}
	for range width - (len(digits) - i) {
		buf = append(buf, '0')
	}
	return append(buf, digits[i:]...)
}

// numberedName is prefix followed by key padded to nine digits, as in
// "Customer#000000001".
func numberedName(prefix string, key int64) string {
	return string(appendPadded([]byte(prefix), key, 9))
}

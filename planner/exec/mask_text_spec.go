package exec

import (
	"unicode"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// MaskKeep is the replacement that leaves a character as it is.
const MaskKeep = keep

// TextMask is what a call of a mask function with constant options does
// to text, for writing the same mask in another engine's SQL: the span
// of the value it replaces and each character class's replacement.
type TextMask struct {
	// Span is which characters are replaced: "all", or "first", "last"
	// (the first or last Count), or "but_first", "but_last" (all but the
	// first or last Count).
	Span  string
	Count int
	// Upper, Lower, Digit and Other replace each class (MaskKeep keeps).
	Upper, Lower, Digit, Other rune
}

// ConstTextMask reads the options of the mask function name, given as
// constants (text, int64 or nil, as the binder casts them), as the
// kernel reads them; ok is false for a name that is not a mask function.
func ConstTextMask(name string, options []any) (TextMask, bool) {
	f, ok := maskFuncNamed(name)
	if !ok {
		return TextMask{}, false
	}
	args := make([]arrow.Array, len(options))
	for i, o := range options {
		switch v := o.(type) {
		case string:
			b := array.NewStringBuilder(memory.DefaultAllocator)
			b.Append(v)
			args[i] = b.NewArray()
			b.Release()
		case int64:
			b := array.NewInt64Builder(memory.DefaultAllocator)
			b.Append(v)
			args[i] = b.NewArray()
			b.Release()
		default:
			args[i] = array.MakeArrayOfNull(memory.DefaultAllocator, arrow.BinaryTypes.String, 1)
		}
		defer args[i].Release()
	}
	s := newMaskOptions(f, args).read(0)
	span := [...]string{maskAll: "all", maskFirstN: "first", maskLastN: "last", maskShowFirstN: "but_first", maskShowLastN: "but_last"}[f]
	return TextMask{Span: span, Count: s.count, Upper: s.upper, Lower: s.lower, Digit: s.digit, Other: s.other}, true
}

// MaskClassRunes are the characters a mask replaces with its upper,
// lower and digit replacements, in code point order; every other
// character is of the other class.
func MaskClassRunes() (upper, lower, digit []rune) {
	var probe maskSettings
	probe.upper, probe.lower, probe.digit, probe.other = 1, 2, 3, 4
	add := func(table *unicode.RangeTable, class rune, out *[]rune) {
		for _, r16 := range table.R16 {
			for r := rune(r16.Lo); r <= rune(r16.Hi); r += rune(r16.Stride) {
				if probe.replacement(r) == class {
					*out = append(*out, r)
				}
			}
		}
		for _, r32 := range table.R32 {
			for r := rune(r32.Lo); r <= rune(r32.Hi); r += rune(r32.Stride) {
				if probe.replacement(r) == class {
					*out = append(*out, r)
				}
			}
		}
	}
	add(unicode.Upper, 1, &upper)
	add(unicode.Lower, 2, &lower)
	add(unicode.Digit, 3, &digit)
	return upper, lower, digit
}

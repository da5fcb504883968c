package planner

// likeEndsInEscape reports whether a LIKE pattern ends with a backslash
// that escapes nothing, which makes matching fail with 22025 for some
// texts.
func likeEndsInEscape(pat string) bool {
	n := 0
	for i := len(pat) - 1; i >= 0 && pat[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

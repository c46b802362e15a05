package node

// Text helpers the node rules and the node finder share.

// onlyOf reports whether every byte of s is a or b, as strings.Trim(s,
// string([]byte{a, b})) == "" does for ASCII a and b, without building the
// cutset's ASCII set on each call.
func onlyOf(s string, a, b byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != a && s[i] != b {
			return false
		}
	}
	return true
}

// cutDigitsSuffix cuts one or more ASCII digits and, before them, sep off
// the end of s.
func cutDigitsSuffix(s string, sep byte) (string, bool) {
	i := len(s)
	for i > 0 && '0' <= s[i-1] && s[i-1] <= '9' {
		i--
	}
	if i == len(s) || i == 0 || s[i-1] != sep {
		return s, false
	}
	return s[:i-1], true
}

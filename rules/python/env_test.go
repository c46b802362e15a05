package python

import (
	"slices"
	"testing"
)

// TestShlexSplit: PYTEST_ADDOPTS and addopts are split as Python's
// shlex.split splits them.
func TestShlexSplit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  -x   -q ", []string{"-x", "-q"}},
		{`-k 'a or b'`, []string{"-k", "a or b"}},
		{`-k "a \"b\" \\ \c"`, []string{"-k", `a "b" \ \c`}},
		{`a\ b ''`, []string{"a b", ""}},
		{`x"y"'z'`, []string{"xyz"}},
	} {
		got, ok := shlexSplit(c.in)
		if !ok || !slices.Equal(got, c.want) {
			t.Errorf("shlexSplit(%q) = %q, %v, want %q", c.in, got, ok, c.want)
		}
	}
	for _, in := range []string{`'a`, `"a`, `a\`} {
		if _, ok := shlexSplit(in); ok {
			t.Errorf("shlexSplit(%q) read", in)
		}
	}
}

package setting

import "testing"

func TestBool(t *testing.T) {
	for _, c := range []struct {
		in        string
		value, ok bool
	}{
		{"1", true, true}, {"true", true, true}, {"TRUE", true, true}, {" yes ", true, true}, {"On", true, true},
		{"0", false, true}, {"false", false, true}, {"off", false, true}, {"No", false, true},
		{"", false, false}, {"2", false, false}, {"enabled", false, false}, {"t", false, false}, {"-1", false, false},
	} {
		if v, ok := Bool(c.in); v != c.value || ok != c.ok {
			t.Errorf("Bool(%q) = %v, %v; want %v, %v", c.in, v, ok, c.value, c.ok)
		}
	}
}

// TestOneParser: every boolean setting understands the same words
// (issue 16: SHRINKRUN_DISABLE=true once did nothing).
func TestOneParser(t *testing.T) {
	for _, v := range []string{"1", "true", "yes", "on", "TRUE"} {
		if !Disabled(func(string) string { return v }) {
			t.Errorf("SHRINKRUN_DISABLE=%s does not disable", v)
		}
	}
	for _, v := range []string{"", "0", "false", "no", "off", "maybe"} {
		if Disabled(func(string) string { return v }) {
			t.Errorf("SHRINKRUN_DISABLE=%s disables", v)
		}
	}
}

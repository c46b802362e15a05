package setting

import (
	"strings"
	"testing"
)

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

func TestCount(t *testing.T) {
	for _, c := range []struct {
		in string
		n  int64
		ok bool
	}{
		{"0", 0, true}, {"7", 7, true}, {"99999999999999999999", 1<<63 - 1, true},
		{"", 0, false}, {"-1", 0, false}, {"-99999999999999999999", 0, false}, {"1.5", 0, false}, {" 3", 0, false}, {"3d", 0, false},
	} {
		if n, ok := Count(c.in); n != c.n || ok != c.ok {
			t.Errorf("Count(%q) = %d, %v; want %d, %v", c.in, n, ok, c.n, c.ok)
		}
	}
}

func TestCheck(t *testing.T) {
	env := map[string]string{
		"SHRINKRUN_BUDGET":    "100",
		"SHRINKRUN_AGENT":     "clod",
		"SHRINKRUN_DISABLE":   "maybe",
		"SHRINKRUN_HISTORY":   "off",
		"SHRINKRUN_KEEP_DAYS": "-1",
		"SHRINKRUN_KEEP_MB":   "",
	}
	getenv := func(k string) string { return env[k] }
	var got []string
	for _, e := range Check(getenv) {
		got = append(got, e.Name)
	}
	if want := "SHRINKRUN_DISABLE SHRINKRUN_AGENT SHRINKRUN_BUDGET SHRINKRUN_KEEP_DAYS"; strings.Join(got, " ") != want {
		t.Errorf("Check reports %q, want %q", got, want)
	}
	if b := Budget(getenv, 16384); b != 16384 {
		t.Errorf("Budget with SHRINKRUN_BUDGET=100 = %d, want the default", b)
	}
	env["SHRINKRUN_BUDGET"] = "4096"
	if b := Budget(getenv, 16384); b != 4096 {
		t.Errorf("Budget with SHRINKRUN_BUDGET=4096 = %d", b)
	}
	if a := Agent(getenv); a != "" {
		t.Errorf("Agent with SHRINKRUN_AGENT=clod = %q", a)
	}
	if e := Check(getenv)[0]; e.Error() != "SHRINKRUN_DISABLE=maybe is ignored (want 1 or 0: true/false, yes/no, on/off); the default applies" {
		t.Errorf("message: %s", e)
	}
}

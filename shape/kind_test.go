package shape

import "testing"

func TestKindOf(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"cat", "a.py"}, "view"},
		{[]string{"/usr/bin/nl", "-ba", "a.go"}, "view"},
		{[]string{"make", "test"}, "runner"},
		{[]string{"./runtests.sh"}, "runner"},
		{[]string{"reproduce.py"}, "runner"},
		{[]string{"du", "-a"}, "other"},
		{nil, "other"},
	} {
		if got := kindOf(tc.argv).name; got != tc.want {
			t.Errorf("kindOf(%q) = %s, want %s", tc.argv, got, tc.want)
		}
	}
}

package classify_test

import (
	"strings"
	"testing"
)

// filterCases are filter stages after a recognized command; want is the
// cut, or -1 when the command must pass through (with a reason naming why).
var filterCases = []struct {
	stage string
	want  Cut
	lines int
}{
	{"cat", KeepsAll, 0},
	{"cat -", KeepsAll, 0},
	{"head", DropsEnd, 10},
	{"head -20", DropsEnd, 20},
	{"head -n 20", DropsEnd, 20},
	{"head -n20", DropsEnd, 20},
	{"head --lines=20", DropsEnd, 20},
	{"head --lines 20", DropsEnd, 20},
	{"head -n -5", DropsEnd, 0},
	{"tail", DropsStart, 10},
	{"tail -40", DropsStart, 40},
	{"tail -n 40", DropsStart, 40},
	{"tail -n +3", DropsStart, 0},
	{"grep FAIL", DropsAny, 0},
	{"grep -E 'FAIL|error'", DropsAny, 0},
	{"grep -v noise", DropsAny, 0},
	{"grep -iv -e a -e b", DropsAny, 0},
	{"grep -A3 panicked", DropsAny, 0},
	{"grep -A 3 -B2 -C1 -5 x", DropsAny, 0},
	{"grep --color=always -m 5 x", DropsAny, 0},
	{"grep --regexp=x", DropsAny, 0},
	{"grep -- -x", DropsAny, 0},
	{"rg -N FAILED", DropsAny, 0},
	{"rg --no-line-number -i -A2 x", DropsAny, 0},
	{"sed -n 1,50p", DropsEnd, 50},
	{"sed -n '10,$p'", DropsStart, 0},
	{"sed -n 10,20p", DropsAny, 0},
	{"sed 20q", DropsEnd, 20},
	{"sed -e 20q", DropsEnd, 20},
	{"sed '1,5d'", DropsStart, 0},
	{"sed '5,$d'", DropsEnd, 4},
	{"sed 5,9d", DropsAny, 0},

	// Issue 14 item 9: a filter that reads or writes more than the pipe.
	{"cat other.patch", -1, 0},
	{"cat -A", -1, 0},
	{"sed e", -1, 0},
	{"sed 's/x/y/w f'", -1, 0},
	{"sed -i 1d", -1, 0},
	{"sed -n 1,5p f", -1, 0},
	{"sed -n 1,5w f", -1, 0},
	{"sort -o F", -1, 0},
	{"sort --compress-program=sh", -1, 0},
	{"uniq - OUT", -1, 0},
	{"grep -r x /", -1, 0},
	{"grep x file", -1, 0},
	{"grep -f patterns", -1, 0},
	{"grep -n x", -1, 0},
	{"grep -c x", -1, 0},
	{"grep -o x", -1, 0},
	{"grep -l x", -1, 0},
	{"grep -ie", -1, 0},
	{"grep", -1, 0},
	{"grep --color=sometimes x", -1, 0},
	{"grep --include=x y", -1, 0},
	{"rg --files /", -1, 0},
	{"rg FAILED", -1, 0},
	{"rg -N x dir", -1, 0},
	{"head -c 100", -1, 0},
	{"head -5 f", -1, 0},
	{"head -n", -1, 0},
	{"head -n 5 -n 3", -1, 0},
	{"head -n +5", -1, 0},
	{"head -5k", -1, 0},
	{"tail -f", -1, 0},
	{"tail -n -5x", -1, 0},
	{"tail +5", -1, 0},
	// Filters that rebuild the lines: the block would describe something
	// other than the command's output.
	{"sort", -1, 0},
	{"uniq", -1, 0},
	{"wc -l", -1, 0},
	{"cut -c1-80", -1, 0},
	{"tr a b", -1, 0},
	{"xargs rm", -1, 0},
}

func TestFilters(t *testing.T) {
	for _, c := range filterCases {
		src := "git diff | " + c.stage
		r := String(src)
		if c.want < 0 {
			if r.Rule != "" || r.Reason == "" {
				t.Errorf("String(%q) = %q (%q), want a pass-through with a reason", src, r.Rule, r.Reason)
			}
			continue
		}
		if r.Rule == "" {
			t.Errorf("String(%q) passes through (%s), want %v", src, r.Explain(), c.want)
			continue
		}
		if len(r.Filters) != 1 {
			t.Fatalf("String(%q).Filters = %+v, want one", src, r.Filters)
		}
		f := r.Filters[0]
		if f.Cut != c.want || f.Lines != c.lines || f.Text != c.stage {
			t.Errorf("String(%q).Filters[0] = %+v, want {%q %v %d}", src, f, c.stage, c.want, c.lines)
		}
	}
}

func TestFilterChain(t *testing.T) {
	r := String("cargo test 2>&1 | grep -v Compiling | tail -n 40 2>&1")
	if r.Rule == "" || len(r.Filters) != 2 {
		t.Fatalf("got %+v", r)
	}
	var got []string
	for _, f := range r.Filters {
		got = append(got, f.Text+"="+f.Cut.String())
	}
	if want := "grep -v Compiling=drops any|tail -n 40 2>&1=drops the start"; strings.Join(got, "|") != want {
		t.Errorf("filters %q, want %q", strings.Join(got, "|"), want)
	}
}

package shape

import (
	"regexp"
	"strings"
	"testing"
)

// The traces' oracle: each language's frames found by expressions of
// their own, and a frame is the project's when its file is under the
// corpus's root (or relative, as Rust prints the crate's own files): not
// the library lists trace.go reads.
var (
	frameLocationREs = []*regexp.Regexp{
		regexp.MustCompile(`^  File "([^"]+)", line \d+, in `), // Python
		regexp.MustCompile(`^\t(\S+\.go):\d+`),                 // Go
		regexp.MustCompile(`^ +at (\S+):\d+:\d+$`),             // Rust
		regexp.MustCompile(`^ +at (?:.* \()?([^()\s]+?)\)?$`),  // JavaScript
	}
	ownRoot = "/tmp/shrinkrun-corpus/shape/"
)

// frames returns the location lines of the traces in out, and whether
// each is the project's own.
func frames(out []byte) (lines []string, own []bool) {
	for _, l := range splitKeep(out) {
		l = strings.TrimSuffix(l, "\n")
		for _, re := range frameLocationREs {
			if m := re.FindStringSubmatch(l); m != nil {
				lines = append(lines, l)
				own = append(own, strings.HasPrefix(m[1], ownRoot) || strings.HasPrefix(m[1], "./"))
				break
			}
		}
	}
	return lines, own
}

// TestTraceOracle: in every corpus case with a trace, at every client's
// limit, each frame in the project's own files is in the cut, and each
// library frame is in it or counted by a marker's "library frames".
func TestTraceOracle(t *testing.T) {
	seen := 0
	for _, c := range loadCorpus(t) {
		locs, own := frames(append(append([]byte(nil), c.stdout...), c.stderr...))
		if len(locs) == 0 || c.viewsFile() {
			continue
		}
		seen++
		for _, cl := range goldenClients {
			_, cut := joined(cutCase(c, cl.limit, cl.budget))
			shown := map[string]int{}
			counted := int64(0)
			for _, l := range splitKeep(cut) {
				l = strings.TrimSuffix(l, "\n")
				if g, ok := gapCounts(l); ok {
					counted += g.frames
				}
				shown[l]++
			}
			library := 0
			for i, l := range locs {
				switch {
				case own[i] && shown[l] == 0:
					t.Errorf("%s/%s: the project's frame %q is not in the cut", c.name, cl.name, l)
				case !own[i] && shown[l] > 0:
					shown[l]--
				case !own[i]:
					library++
				}
			}
			if counted != int64(library) {
				t.Errorf("%s/%s: %d library frames left out, the markers count %d", c.name, cl.name, library, counted)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no trace in the corpus")
	}
}

// cutText cuts one stream of text with no Ticks and returns the cut.
func cutText(argv []string, limit, budget int, in string) string {
	c := New(Options{Limit: limit, Budget: budget, Argv: argv})
	out := c.Write(Stdout, []byte(in))
	_, all := joined(append(out, c.Close("shrinkrun show 1", nil)...))
	return string(all)
}

// filler is n lines of output no shape keeps, before what a test looks at.
func filler(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat("abcdefghij"[i%10:i%10+1], 1+i%7))
		b.WriteString(" filler\n")
	}
	return b.String()
}

func TestTraces(t *testing.T) {
	for _, tc := range []struct {
		name, trace string
		kept        []string
		frames      string // the marker's count, or the frame shown where its marker would cost more
	}{
		{"python", "Traceback (most recent call last):\n  File \"/work/app/main.py\", line 3, in <module>\n    main()\n" +
			"  File \"/usr/lib/python3.11/json/__init__.py\", line 346, in loads\n    return _default_decoder.decode(s)\n" +
			"json.decoder.JSONDecodeError: Expecting value\n",
			[]string{"Traceback (most recent call last):", `  File "/work/app/main.py", line 3, in <module>`, "    main()", "json.decoder.JSONDecodeError: Expecting value"},
			"(1 library frame)"},
		{"go", "panic: boom\n\ngoroutine 1 [running]:\nsort.Slice({0x1, 0x2})\n\t/usr/local/go/src/sort/slice.go:29 +0xc5\nmain.main()\n\t/work/app/main.go:21 +0x198\nexit status 2\n",
			[]string{"panic: boom", "goroutine 1 [running]:", "main.main()", "\t/work/app/main.go:21 +0x198", "exit status 2"},
			"(1 library frame)"},
		{"rust", "thread 'main' panicked at src/main.rs:4:5:\nindex out of bounds\nstack backtrace:\n   0: core::panicking::panic_fmt\n             at /rustc/abc/library/core/src/panicking.rs:72:14\n   1: demo::main\n             at ./src/main.rs:4:5\n",
			[]string{"thread 'main' panicked at src/main.rs:4:5:", "index out of bounds", "   1: demo::main", "             at ./src/main.rs:4:5"},
			"(1 library frame)"},
		{"node", "TypeError: x is not a function\n    at run (/work/app/index.js:3:9)\n    at Module._compile (node:internal/modules/cjs/loader:1256:14)\n    at Array.map (<anonymous>)\n",
			[]string{"TypeError: x is not a function", "    at run (/work/app/index.js:3:9)"},
			"(2 library frames)"},
		{"java", "Exception in thread \"main\" java.lang.IllegalStateException: boom\n\tat com.example.App.run(App.java:12)\n\tat java.base/java.lang.Thread.run(Thread.java:833)\n",
			[]string{"Exception in thread \"main\" java.lang.IllegalStateException: boom", "\tat com.example.App.run(App.java:12)"},
			"\n\tat java.base/java.lang.Thread.run(Thread.java:833)\n"},
	} {
		got := cutText([]string{"./app"}, 3000, 2000, filler(400)+tc.trace)
		for _, k := range tc.kept {
			if !strings.Contains(got, "\n"+k+"\n") {
				t.Errorf("%s: %q not kept in\n%s", tc.name, k, got)
			}
		}
		if !strings.Contains(got, tc.frames) {
			t.Errorf("%s: no %q in\n%s", tc.name, tc.frames, got)
		}
	}
}

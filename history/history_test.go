package history

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/shrinkrun/shrinkrun/privdir"
)

// TestMain doubles as the appender of TestConcurrentAppends: with
// HISTORY_TEST_APPEND set, the test binary appends one record and exits.
func TestMain(m *testing.M) {
	if dir := os.Getenv("HISTORY_TEST_APPEND"); dir != "" {
		os.Exit(helperAppend(dir))
	}
	os.Exit(m.Run())
}

// openDir opens (creating) a history directory at path.
func openDir(t testing.TB, path string) *privdir.Dir {
	t.Helper()
	d, err := privdir.Open(path, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func helperAppend(path string) int {
	dir, err := privdir.Open(path, false)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer dir.Close()
	i, _ := strconv.Atoi(os.Getenv("HISTORY_TEST_INDEX"))
	if s := os.Getenv("HISTORY_TEST_SEGMENT"); s != "" {
		segmentBytes, _ = strconv.ParseInt(s, 10, 64)
		keepSegments = 1000
	}
	if err := Append(dir, bigRecord(i)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// bigRecord is record i with a command long enough to be cut to MaxLine, so
// that every append is as large as an append gets.
func bigRecord(i int) Record {
	return Record{
		Time:    time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Add(time.Duration(i) * time.Millisecond),
		Cwd:     "/work/project",
		Mode:    Curated,
		Rule:    "bash.git_diff",
		Command: fmt.Sprintf("run-%03d %s", i, strings.Repeat(strconv.Itoa(i%10), 5000)),
		Exit:    Int(i % 3), RawBytes: Int64(int64(1000 + i)), ShownBytes: Int64(int64(100 + i)),
		Shown: ShownBlock, RawID: "0123456789abcdef", DurationMS: 1.5,
	}
}

// TestConcurrentAppends starts 50 processes that append at once; the
// history must hold 50 whole records, whether the file stays one piece or
// is rotated while they write.
func TestConcurrentAppends(t *testing.T) {
	for _, segment := range []string{"", "16384"} {
		t.Run("segment="+segment, func(t *testing.T) {
			dir := openDir(t, filepath.Join(t.TempDir(), "history"))
			const n = 50
			cmds := make([]*exec.Cmd, n)
			for i := range cmds {
				cmd := exec.Command(os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), "HISTORY_TEST_APPEND="+dir.Path(), "HISTORY_TEST_INDEX="+strconv.Itoa(i), "HISTORY_TEST_SEGMENT="+segment)
				cmd.Stderr = os.Stderr
				cmds[i] = cmd
			}
			var wg sync.WaitGroup
			for _, cmd := range cmds {
				wg.Go(func() {
					if err := cmd.Run(); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			recs, st, err := Read(dir)
			if err != nil {
				t.Fatal(err)
			}
			if st.Malformed != 0 || len(recs) != n {
				t.Fatalf("%d records, %d malformed lines; want %d records", len(recs), st.Malformed, n)
			}
			seen := map[int]bool{}
			for _, r := range recs {
				var i int
				if _, err := fmt.Sscanf(r.Command, "run-%d ", &i); err != nil {
					t.Fatalf("command %.20q: %v", r.Command, err)
				}
				want := bigRecord(i)
				if !r.Truncated || !strings.HasPrefix(want.Command, r.Command) || *r.Exit != *want.Exit || *r.RawBytes != *want.RawBytes {
					t.Errorf("record %d is not what was appended", i)
				}
				seen[i] = true
			}
			if len(seen) != n {
				t.Errorf("%d distinct records, want %d", len(seen), n)
			}
			files, _ := files(dir)
			if segment != "" && len(files) < 3 {
				t.Errorf("%d history files: the rotation was not exercised", len(files))
			}
		})
	}
}

func TestEncodeFitsALine(t *testing.T) {
	long := strings.Repeat("é\"\\\n\x01", 2000) // escapes grow each character
	for _, rec := range []Record{
		{Command: long, Cwd: "/w", Mode: Passthrough, Reason: "r"},
		{Command: "x", Cwd: "/" + strings.Repeat("d", 5000), Mode: Passthrough},
		{Command: strings.Repeat("a", MaxLine), Mode: Curated},
	} {
		line, err := Encode(rec)
		if err != nil {
			t.Fatal(err)
		}
		if len(line) > MaxLine || line[len(line)-1] != '\n' || bytes.Count(line, []byte("\n")) != 1 {
			t.Fatalf("line of %d bytes, %d newlines", len(line), bytes.Count(line, []byte("\n")))
		}
		var back Record
		if err := json.Unmarshal(line, &back); err != nil {
			t.Fatal(err)
		}
		if !back.Truncated || !utf8.ValidString(back.Command) || !strings.HasPrefix(rec.Command, back.Command) || !strings.HasPrefix(rec.Cwd, back.Cwd) {
			t.Errorf("truncated %v, command %.30q", back.Truncated, back.Command)
		}
		if len(line) < MaxLine-16 {
			t.Errorf("cut to %d bytes: more than needed", len(line))
		}
	}
	line, _ := Encode(Record{Command: "git diff <a> && b", Mode: Curated})
	if !bytes.Contains(line, []byte(`"command":"git diff <a> && b"`)) || bytes.Contains(line, []byte("truncated")) {
		t.Errorf("short record: %s", line)
	}
}

func TestAppendRead(t *testing.T) {
	dir := openDir(t, filepath.Join(t.TempDir(), "a", "history"))
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 678_900_000, time.FixedZone("X", 3600))
	want := []Record{
		{Time: t0, Cwd: "/p", Mode: Passthrough, Reason: "not a recognized command", Command: "ls", Exit: Int(0), DurationMS: 2.0004},
		{Time: t0.Add(time.Second), Cwd: "/p", Mode: Curated, Rule: "bash.git_status", Command: "git status", Exit: Int(1),
			RawBytes: Int64(10), ShownBytes: Int64(10), Shown: ShownRaw, RawID: "00112233445566ff", DurationMS: 3},
	}
	for _, r := range want {
		if err := Append(dir, r); err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(dir.Path())
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("dir mode %v, %v", fi.Mode(), err)
	}
	if fi, _ := os.Stat(filepath.Join(dir.Path(), currentName)); fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v", fi.Mode())
	}
	got, st, err := Read(dir)
	if err != nil || len(got) != 2 || st.Malformed != 0 {
		t.Fatalf("%d records, %+v, %v", len(got), st, err)
	}
	if !got[0].Time.Equal(t0.Truncate(time.Millisecond)) || got[0].DurationMS != 2 || got[0].RawBytes != nil {
		t.Errorf("first record %+v", got[0])
	}
	if got[1].Rule != "bash.git_status" || *got[1].RawBytes != 10 || *got[1].Exit != 1 {
		t.Errorf("second record %+v", got[1])
	}
}

func TestReadSkipsDamage(t *testing.T) {
	dir := openDir(t, t.TempDir())
	good, _ := Encode(Record{Command: "ok", Mode: Passthrough})
	other := []byte(`{"v":99,"command":"future"}` + "\n")
	torn := append([]byte(`{"v":1,"time":"2026-01-02T0`), good...) // a cut write, then a whole one
	content := bytes.Join([][]byte{good, []byte("garbage\n"), other, torn, []byte("\n"), good[:20]}, nil)
	os.WriteFile(filepath.Join(dir.Path(), currentName), content, 0o600)
	recs, st, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	// good, the record after the tear; the unterminated tail is a record
	// still being written and is not counted.
	if len(recs) != 2 || st.Malformed != 2 || st.Other != 1 {
		t.Errorf("%d records, %+v", len(recs), st)
	}
	if recs, _, err := Read(openDir(t, t.TempDir())); err != nil || len(recs) != 0 {
		t.Errorf("empty dir: %v, %v", recs, err)
	}
}

func TestRotation(t *testing.T) {
	dir := openDir(t, t.TempDir())
	defer func(s int64, k int) { segmentBytes, keepSegments = s, k }(segmentBytes, keepSegments)
	segmentBytes, keepSegments = 1000, 3
	for i := range 40 {
		if err := Append(dir, Record{Time: time.Unix(int64(i), 0), Command: strings.Repeat("x", 200), Mode: Passthrough}); err != nil {
			t.Fatal(err)
		}
	}
	segs, _ := segments(dir)
	if len(segs) != keepSegments {
		t.Errorf("%d segments, want %d", len(segs), keepSegments)
	}
	// A segment holds the records up to the first that reaches 1000 bytes;
	// the newest segments and the current file remain.
	line, _ := Encode(Record{Time: time.Unix(0, 0), Command: strings.Repeat("x", 200), Mode: Passthrough})
	per := (1000 + len(line) - 1) / len(line)
	recs, _, _ := Read(dir)
	if want := keepSegments*per + 40%per; len(recs) != want || recs[len(recs)-1].Time.Unix() != 39 {
		t.Errorf("%d records kept, want %d, last %v", len(recs), want, recs[len(recs)-1].Time)
	}
	for i := 1; i < len(recs); i++ {
		if recs[i].Time.Before(recs[i-1].Time) {
			t.Fatal("records out of order")
		}
	}
}

// TestAppendRefuses is issue 14, item 4 for the history: a runs.jsonl that
// is a link (to a file outside, or within the directory), another user's
// (root stands in for a second user with chown), or writable by others
// receives nothing, and the linked file is unchanged.
func TestAppendRefuses(t *testing.T) {
	base := t.TempDir()
	dir := openDir(t, filepath.Join(base, "history"))
	cur := filepath.Join(dir.Path(), currentName)
	victim := filepath.Join(base, "victim")
	inner := filepath.Join(dir.Path(), "inner")
	reset := func() {
		os.Remove(cur)
		os.WriteFile(victim, []byte("someone else's\n"), 0o600)
		os.WriteFile(inner, []byte("mine\n"), 0o600)
	}
	cases := []struct {
		name  string
		plant func() error
		want  string
	}{
		{"link out", func() error { return os.Symlink(victim, cur) }, "is a symbolic link"},
		{"relative link", func() error { return os.Symlink("../victim", cur) }, "is a symbolic link"},
		{"link within", func() error { return os.Symlink("inner", cur) }, "is a symbolic link"},
		{"0666", func() error {
			if err := os.WriteFile(cur, nil, 0o600); err != nil {
				return err
			}
			return os.Chmod(cur, 0o666)
		}, "is writable by other users"},
	}
	if os.Geteuid() == 0 {
		cases = append(cases, struct {
			name  string
			plant func() error
			want  string
		}{"another user's", func() error {
			if err := os.WriteFile(cur, nil, 0o600); err != nil {
				return err
			}
			return os.Chown(cur, 65534, 65534)
		}, "belongs to another user"})
	} else {
		t.Log("not root: the case of another user's runs.jsonl is not covered")
	}
	for _, c := range cases {
		reset()
		if err := c.plant(); err != nil {
			t.Fatal(err)
		}
		err := Append(dir, Record{Mode: Passthrough, Command: "secret-token"})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Append = %v, want %q", c.name, err, c.want)
		}
		if err := CheckWritable(dir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: CheckWritable = %v", c.name, err)
		}
		for _, p := range []string{victim, inner, cur} {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), "secret-token") {
				t.Errorf("%s: the record reached %s", c.name, p)
			}
		}
	}
	reset()
	if err := CheckWritable(dir); err != nil {
		t.Errorf("CheckWritable of a usable history: %v", err)
	}
}

func TestEnabled(t *testing.T) {
	for v, want := range map[string]bool{"": true, "1": true, "0": false, "off": false, "FALSE": false, " no ": false, "yes": true} {
		if got := Enabled(func(string) string { return v }); got != want {
			t.Errorf("SHRINKRUN_HISTORY=%q: %v", v, got)
		}
	}
}

func TestKeepShown(t *testing.T) {
	dir := openDir(t, t.TempDir())
	shownPath := func(id string) string { return filepath.Join(dir.Path(), shownDir, id) }
	now := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	block := []byte("[tool_output_compression]\nrule: x\n")
	id, err := KeepShown(dir, block, 7*24*time.Hour, now)
	if err != nil || id != ShownID(block) {
		t.Fatal(id, err)
	}
	if b, ok := ReadShown(dir, id); !ok || !bytes.Equal(b, block) {
		t.Fatal("not read back")
	}
	// Kept again later: not rewritten, its age restarts.
	later := now.Add(5 * 24 * time.Hour)
	if id2, err := KeepShown(dir, block, 7*24*time.Hour, later); err != nil || id2 != id {
		t.Fatal(id2, err)
	}
	if fi, _ := os.Stat(shownPath(id)); !fi.ModTime().Equal(later) {
		t.Errorf("mtime %v, want %v", fi.ModTime(), later)
	}
	// A file that does not match its name is not a kept block.
	os.WriteFile(shownPath(id), []byte("partial"), 0o600)
	if _, ok := ReadShown(dir, id); ok {
		t.Error("a damaged block was read")
	}
	for _, bad := range []string{"../../etc/passwd", "0123456789ABCDEF", ".pruned", ""} {
		if _, ok := ReadShown(dir, bad); ok || validShownID(bad) {
			t.Errorf("shown id %q accepted", bad)
		}
	}
	// Pruning: an old block goes at the next hourly prune.
	old := []byte("old block")
	oldID, _ := KeepShown(dir, old, 7*24*time.Hour, later)
	os.Chtimes(shownPath(oldID), now.Add(-30*24*time.Hour), now.Add(-30*24*time.Hour))
	KeepShown(dir, block, 7*24*time.Hour, later.Add(2*time.Hour))
	if _, ok := ReadShown(dir, oldID); ok {
		t.Error("an old block survived the prune")
	}
}

// BenchmarkAppend is the cost a run pays for its record: encoding it and
// one open, write, fstat and close of the history file.
func BenchmarkAppend(b *testing.B) {
	dir := openDir(b, b.TempDir())
	rec := Record{Time: time.Now(), Cwd: "/home/user/src/project", Mode: Passthrough, Reason: "not a recognized command",
		Command: "go test ./...", DurationMS: 12.5}
	for b.Loop() {
		if err := Append(dir, rec); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	rec := Record{Time: time.Now(), Cwd: "/home/user/src/project", Mode: Curated, Rule: "bash.git_diff",
		Command: "git diff", RawBytes: Int64(123456), ShownBytes: Int64(2345), Shown: ShownBlock,
		RawID: "0123456789abcdef", ShownID: "fedcba9876543210", DurationMS: 12.5}
	for b.Loop() {
		Encode(rec)
	}
}

// TestMarshalMatchesJSON holds the hand-written encoder to encoding/json's
// bytes (HTML escaping off) on records with every kind of character.
func TestMarshalMatchesJSON(t *testing.T) {
	strs := []string{"", "git status", "a\"b\\c", "tab\tnl\nret\rbs\bff\fnul\x00\x1f\x7f", "<a>&b", "é日本🙂",
		"bad \xff\xfe utf8 \xe2\x82", "line\u2028para\u2029end", strings.Repeat("x", 300)}
	floats := []float64{0, 1, 2.5, 0.001, 1234567.891, 1e-7, 3e21, 12.125}
	for i, s := range strs {
		rec := Record{
			V: Version, Time: time.Date(2026, 1, 2, 3, 4, 5, i*1_000_000, time.UTC), Cwd: s, Mode: Curated,
			Rule: s, Reason: s, Command: s, Truncated: i%2 == 0, Exit: Int(i - 3), Shown: s, RawID: s, ShownID: s,
			DurationMS: floats[i%len(floats)],
		}
		if i%3 != 0 {
			rec.RawBytes, rec.ShownBytes = Int64(int64(i*1000)), Int64(-1)
		}
		if i%4 == 1 {
			rec.Exit = nil
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(rec); err != nil {
			t.Fatal(err)
		}
		got, err := marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("record %d:\n got %s\nwant %s", i, got, want.Bytes())
		}
	}
}

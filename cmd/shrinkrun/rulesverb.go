package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/BurntSushi/toml"

	"github.com/shrinkrun/shrinkrun/privdir"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/declare"
	"github.com/shrinkrun/shrinkrun/rules/layers"
	"github.com/shrinkrun/shrinkrun/summarize"
)

const rulesHelp = `Usage: shrinkrun rules list|test|eject ...

Rules written in shrinkrun's rule format (TOML, docs/rules.md): yours in
$XDG_CONFIG_HOME/shrinkrun/rules (~/.config/shrinkrun/rules), which always
apply, and a repository's in .shrinkrun/rules, which apply once you trust
them (shrinkrun trust). Both come before the built-in rules: one with a
built-in rule's id replaces it, another is asked first.

  shrinkrun rules list
      every rule, where it comes from, and every rule file that does not
      apply and why
  shrinkrun rules test [--update] [FILE.toml|DIR]...
      runs the test cases beside each rule file (DIR/NAME/CASE.meta,
      .stdout, .stderr, and CASE.golden or CASE.expect), twice each;
      default: your rules and the repository's
  shrinkrun rules eject [--project] [--force] [--stdout] ID
      copies a shipped rule written in the format, with its test cases,
      into your rules directory (--project: the repository's) to edit it
`

// rulesVerb is shrinkrun rules: list, test and eject.
func rulesVerb(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) == 0 {
			fmt.Fprintln(stderr, "shrinkrun: rules: missing list, test or eject (usage: shrinkrun rules list|test|eject ...; shrinkrun rules --help)")
			return exitUsage
		}
		fmt.Fprint(stdout, rulesHelp)
		return 0
	}
	switch args[0] {
	case "list":
		return rulesList(args[1:], stdout, stderr)
	case "test":
		return rulesTest(args[1:], stdout, stderr)
	case "eject":
		return rulesEject(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "shrinkrun: rules: unknown verb %q: want list, test or eject (shrinkrun rules --help)\n", args[0])
	return exitUsage
}

const rulesListHelp = `Usage: shrinkrun rules list

Lists every rule in the order shrinkrun asks them: the repository's trusted
rule files and yours first, then the built-in rules, each with its
commands and where it comes from (written in Go, or the file it is read
from). Then every rule file that does not apply here, and why. Exits 1
when a rule file does not apply.
`

func rulesList(args []string, stdout, stderr io.Writer) int {
	fl := newVerbFlags("rules list", rulesListHelp)
	if code, done := fl.parse(args, exactly(0), stdout, stderr); done {
		return code
	}
	set, trustErr := findRules()
	rules.Declare(set.Rules())
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	layerOf := map[string]string{}
	for _, f := range set.Files {
		layerOf[f.Path] = f.Layer.String()
	}
	for _, r := range rules.Declared() {
		note := ""
		if builtin(r.ID) {
			note = ", replaces the built-in rule"
		}
		fmt.Fprintf(w, "%-24s %s rule file %s%s: %s\n", r.ID, layerOf[r.Source], r.Source, note, strings.Join(r.Usage, ", "))
	}
	for _, f := range rules.Table {
		for _, r := range f.Rules {
			src := "built in, written in Go"
			if r.Source != "" {
				src = "built in, written in the format: " + r.Source
			}
			if slices.ContainsFunc(rules.Declared(), func(d rules.Rule) bool { return d.ID == r.ID }) {
				src += " (replaced)"
			}
			fmt.Fprintf(w, "%-24s %s: %s\n", r.ID, src, strings.Join(r.Usage, ", "))
		}
	}
	bad := 0
	if trustErr != nil {
		fmt.Fprintf(w, "not applied: the trust store cannot be read, so no project rule file applies: %v\n", trustErr)
		bad++
	}
	for _, f := range set.Files {
		if p := f.Problem(); p != "" {
			fmt.Fprintf(w, "not applied: %s\n", p)
			bad++
		} else if err := f.Rule.Check(); err != nil {
			fmt.Fprintf(w, "not applied: rule file %v; its commands pass through\n", err)
			bad++
		}
	}
	if bad > 0 {
		return 1
	}
	return 0
}

// builtin reports whether the table has a rule of that id.
func builtin(id string) bool {
	for _, f := range rules.Table {
		for _, r := range f.Rules {
			if r.ID == id {
				return true
			}
		}
	}
	return false
}

const rulesTestHelp = `Usage: shrinkrun rules test [--update] [FILE.toml|DIR]...

Runs the test cases of each rule file: for DIR/NAME.toml, every case in
DIR/NAME/. A case is CASE.meta ("command: ..." and "exit_code: N" lines),
the output in CASE.stdout and CASE.stderr (either may be missing), and
what the block must be: CASE.golden, the block byte for byte, or
CASE.expect, properties in TOML (contains and lacks, lists of text;
fallback, whether the boundary check replaced the rule's body; a [fields]
table of the body's scalar fields). Each case's command must be one the
rule recognizes, its block is made twice and must be the same bytes, and
the rule's body must not have been replaced by the boundary check unless
the case says fallback = true. With no operand: your rules directory and
the repository's .shrinkrun/rules. Exits 1 when a case fails.

  --update  write CASE.golden from the block, for the cases without
            CASE.expect
`

func rulesTest(args []string, stdout, stderr io.Writer) int {
	fl := newVerbFlags("rules test", rulesTestHelp)
	update := fl.Bool("update", false, "")
	if code, done := fl.parse(args, nil, stdout, stderr); done {
		return code
	}
	paths := fl.Args()
	if len(paths) == 0 {
		set, _ := findRules()
		if fi, err := os.Stat(set.UserDir); err == nil && fi.IsDir() {
			paths = append(paths, set.UserDir)
		}
		if set.Root != "" {
			switch missing, err := layers.CheckProject(set.Root, false); {
			case err != nil:
				return fl.fail(stderr, err)
			case !missing:
				paths = append(paths, layers.ProjectDir(set.Root))
			}
		}
		if len(paths) == 0 {
			fmt.Fprintf(stderr, "shrinkrun: rules test: no rules directory here (%s, or .shrinkrun/rules in a repository); name a FILE.toml or a DIR\n", set.UserDir)
			return 1
		}
	}
	var files []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return fl.fail(stderr, err)
		}
		if !fi.IsDir() {
			files = append(files, p)
			continue
		}
		more, _ := filepath.Glob(filepath.Join(p, "*.toml"))
		files = append(files, more...)
	}
	t := &tester{out: stdout, update: *update}
	for _, f := range files {
		t.file(f)
	}
	fmt.Fprintf(stdout, "rules test: %d rule files, %d cases, %d failed\n", len(files), t.cases, t.failed)
	if t.failed > 0 {
		return 1
	}
	return 0
}

// tester runs the test cases of rule files.
type tester struct {
	out           io.Writer
	update        bool
	cases, failed int
}

func (t *tester) fail(name, format string, args ...any) {
	t.failed++
	fmt.Fprintf(t.out, "FAIL %s: %s\n", layers.Printable(name), fmt.Sprintf(format, args...))
}

// file runs the cases of the rule file path.
func (t *tester) file(path string) {
	src, err := readTestFile(path, declare.MaxFileBytes)
	var r *declare.Rule
	if err == nil {
		r, err = declare.Parse(filepath.Base(path), path, src)
	}
	if err == nil {
		err = r.Check()
	}
	if err != nil {
		t.cases++
		t.fail(path, "%v", err)
		return
	}
	dir := strings.TrimSuffix(path, ".toml")
	if fi, err := os.Lstat(dir); err == nil && !fi.IsDir() {
		t.cases++
		t.fail(r.ID, "%s is not a directory (a link is not followed): its test cases are not read", dir)
		return
	}
	metas, _ := filepath.Glob(filepath.Join(dir, "*.meta"))
	if len(metas) == 0 {
		t.cases++
		t.fail(r.ID, "no test cases in %s (CASE.meta, CASE.stdout, CASE.stderr, CASE.golden or CASE.expect)", dir)
		return
	}
	// The rule under test is asked first, as a rule of the user's would be.
	rules.Declare([]*declare.Rule{r})
	for _, meta := range metas {
		t.cases++
		base := strings.TrimSuffix(meta, ".meta")
		name := r.ID + "/" + filepath.Base(base)
		if err := t.run(r, base, name); err != nil {
			t.fail(name, "%v", err)
			continue
		}
		fmt.Fprintf(t.out, "ok   %s\n", name)
	}
}

// expect is a case's CASE.expect.
type expect struct {
	Contains []string          `toml:"contains"`
	Lacks    []string          `toml:"lacks"`
	Fallback bool              `toml:"fallback"`
	Fields   map[string]string `toml:"fields"`
}

// run runs the case at base (base.meta, ...) of rule r.
func (t *tester) run(r *declare.Rule, base, name string) error {
	run, err := readCase(base)
	if err != nil {
		return err
	}
	c := rules.String(run.Command)
	if c.Rule != r.ID {
		return fmt.Errorf("the command %q is not one the rule recognizes: %s", run.Command, c.Explain())
	}
	run.Rule, run.Argv, run.Cut = r.ID, c.Tool(), summarize.Cut(c.Cuts())
	if c.ToStderr {
		run.Stdout, run.Stderr = run.Stderr, run.Stdout
	}
	block, ok := rules.Block(run)
	again, _ := rules.Block(run)
	switch {
	case !ok:
		return errors.New("the rule failed on this output (shrinkrun prints the raw output)")
	case !bytes.Equal(block, again):
		return fmt.Errorf("two blocks of the same output differ:\n%s---\n%s", block, again)
	}
	fallback := bytes.Contains(block, []byte("\nfallback: true\n"))
	var want expect
	data, err := readTestFile(base+".expect", declare.MaxFileBytes)
	switch {
	case err == nil:
		md, derr := toml.Decode(string(data), &want)
		if derr == nil && len(md.Undecoded()) > 0 {
			derr = fmt.Errorf("unknown key %s (contains, lacks, fallback, [fields])", md.Undecoded()[0])
		}
		if derr != nil {
			return fmt.Errorf("%s.expect: %v", base, derr)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	case t.update:
		if err := writeTestFile(base+".golden", block); err != nil {
			return err
		}
	default:
		golden, err := readTestFile(base+".golden", maxCaseBytes)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("no %s.golden nor .expect (shrinkrun rules test --update writes the golden block)", filepath.Base(base))
		}
		if err != nil {
			return err
		}
		if !bytes.Equal(block, golden) {
			return fmt.Errorf("the block differs from %s.golden (--update rewrites it):\n--- got\n%s--- want\n%s", filepath.Base(base), block, golden)
		}
	}
	if fallback != want.Fallback {
		if fallback {
			return fmt.Errorf("the boundary check replaced the rule's body: it left out a failure line (fallback: true):\n%s", block)
		}
		return fmt.Errorf("the case expects the fallback, and the rule's body passed the boundary check:\n%s", block)
	}
	for _, s := range want.Contains {
		if !bytes.Contains(block, []byte(s)) {
			return fmt.Errorf("the block lacks %q:\n%s", s, block)
		}
	}
	for _, s := range want.Lacks {
		if bytes.Contains(block, []byte(s)) {
			return fmt.Errorf("the block has %q:\n%s", s, block)
		}
	}
	keys := make([]string, 0, len(want.Fields))
	for k := range want.Fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !bytes.Contains(block, []byte("\n"+k+": "+want.Fields[k]+"\n")) {
			return fmt.Errorf("the block has no field %q with %q:\n%s", k, want.Fields[k], block)
		}
	}
	return nil
}

// readCase reads a case's meta file and its streams.
func readCase(base string) (*summarize.Run, error) {
	meta, err := readTestFile(base+".meta", declare.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	r := &summarize.Run{}
	for l := range strings.Lines(string(meta)) {
		k, v, _ := strings.Cut(strings.TrimRight(l, "\r\n"), ": ")
		switch k {
		case "command":
			r.Command = v
		case "exit_code":
			if v == "null" {
				break
			}
			if r.ExitCode, err = strconv.Atoi(v); err != nil {
				return nil, fmt.Errorf("%s.meta: exit_code %q: a number, or null", base, v)
			}
			r.Exited = true
		case "terminal":
			r.Terminal = v == "true"
		}
	}
	if r.Command == "" {
		return nil, fmt.Errorf("%s.meta has no command: line", base)
	}
	for i, s := range []*[]byte{&r.Stdout, &r.Stderr} {
		b, err := readTestFile(base+[]string{".stdout", ".stderr"}[i], maxCaseBytes)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		*s = b
	}
	r.StdoutBytes, r.StderrBytes = int64(len(r.Stdout)), int64(len(r.Stderr))
	return r, nil
}

const rulesEjectHelp = `Usage: shrinkrun rules eject [--project] [--force] [--stdout] ID

Copies the shipped rule ID (one written in the format: shrinkrun rules
list says which) into your rules directory, with its test cases, so that
you can edit it: a rule file with a built-in rule's id replaces it. The
copy applies at once; shrinkrun rules test runs its cases.

  --project  copy it into the repository's .shrinkrun/rules instead (it
             applies once trusted: shrinkrun trust)
  --force    overwrite a rule file of that name
  --stdout   print the rule file instead of copying it
`

func rulesEject(args []string, stdout, stderr io.Writer) int {
	fl := newVerbFlags("rules eject", rulesEjectHelp)
	project := fl.Bool("project", false, "")
	force := fl.Bool("force", false, "")
	toStdout := fl.Bool("stdout", false, "")
	if code, done := fl.parse(args, exactly(1), stdout, stderr); done {
		return code
	}
	id := fl.Arg(0)
	if !strings.Contains(id, ".") {
		id = "bash." + id
	}
	var lazy *declare.Lazy
	var format []string
	for _, l := range rules.Shipped() {
		format = append(format, l.ID())
		if l.ID() == id {
			lazy = l
		}
	}
	if lazy == nil {
		why := "no rule has that id"
		if builtin(id) {
			why = "it is written in Go, not in the rule format"
		}
		return fl.fail(stderr, fmt.Errorf("%s: %s; the shipped rules written in the format are %s", id, why, strings.Join(format, ", ")))
	}
	src, err := lazy.File()
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun: rules eject: %v\n", err)
		return 1
	}
	if *toStdout {
		stdout.Write(src)
		return 0
	}
	set, _ := findRules()
	dir := set.UserDir
	if *project {
		if set.Root == "" {
			return fl.fail(stderr, errors.New("--project: the working directory is in no repository (no .git above it)"))
		}
		dir = layers.ProjectDir(set.Root)
	}
	if dir == "" {
		return fl.fail(stderr, errors.New("HOME is not set: no rules directory to copy into"))
	}
	dest := filepath.Join(dir, lazy.Name())
	if _, err := os.Lstat(dest); err == nil && !*force {
		fmt.Fprintf(stderr, "shrinkrun: rules eject: %s exists (--force overwrites it)\n", dest)
		return 1
	}
	if *project {
		// Made here, and neither a link: what eject writes stays in the
		// repository.
		_, err = layers.CheckProject(set.Root, true)
	}
	if err == nil {
		err = eject(lazy, dir, src)
	}
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun: rules eject: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "copied %s to %s, with its test cases in %s\n", id, dest, strings.TrimSuffix(dest, ".toml"))
	if *project {
		fmt.Fprintln(stdout, "it applies once trusted: shrinkrun trust")
	}
	return 0
}

// eject writes the rule file src and its test cases into dir, creating it
// (0700: nobody else may write rules that change what is shown). Every
// file is written anew and renamed into place, and a link where a file or
// the cases' directory goes is refused: a repository cannot plant a link
// that turns the copy into a write elsewhere.
func eject(l *declare.Lazy, dir string, src []byte) error {
	cases, err := l.Cases()
	if err != nil {
		return err
	}
	d, err := privdir.Open(dir, true)
	if err != nil {
		return err
	}
	defer d.Close()
	sub, err := d.Sub(strings.TrimSuffix(l.Name(), ".toml"), true)
	if err != nil {
		return err
	}
	defer sub.Close()
	names := make([]string, 0, len(cases))
	for name := range cases {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := replaceFile(sub, name, cases[name]); err != nil {
			return err
		}
	}
	return replaceFile(d, l.Name(), src)
}

// replaceFile writes data as the file name of d (0600): to a new file,
// renamed over the old one, which rename(2) replaces without following it.
// A link there is refused all the same: it was planted by someone.
func replaceFile(d *privdir.Dir, name string, data []byte) error {
	if fi, err := d.Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return &privdir.UnsafeError{Path: filepath.Join(d.Path(), name), Why: "is a symbolic link", Fix: "remove it"}
	}
	f, tmp, err := d.CreateTemp("." + name + ".")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = d.Rename(tmp, name)
	}
	if err != nil {
		d.Remove(tmp)
	}
	return err
}

// maxCaseBytes bounds a test case's stream or golden block.
const maxCaseBytes = 64 << 20

// readTestFile reads a file of a rule's tests, at most max bytes: a
// regular file, reached without a link. A repository's test cases cannot
// make shrinkrun rules test wait on a FIFO, read a device, or print the
// lines of a file a link points at.
func readTestFile(path string, max int64) ([]byte, error) {
	fi, err := os.Lstat(path)
	switch {
	case err != nil:
		return nil, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("%s is a symbolic link: rules test reads no file through a link", layers.Printable(path))
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file", layers.Printable(path))
	case fi.Size() > max:
		return nil, fmt.Errorf("%s: %d bytes, more than the %d rules test reads", layers.Printable(path), fi.Size(), max)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if now, err := f.Stat(); err != nil || !os.SameFile(fi, now) {
		return nil, fmt.Errorf("%s changed while it was being opened", layers.Printable(path))
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(data)) > max {
		err = fmt.Errorf("%s: more than the %d bytes rules test reads", layers.Printable(path), max)
	}
	return data, err
}

// writeTestFile writes a golden block to path: to a new file in its
// directory, renamed over the old one, so a link planted there is replaced,
// never written through; a link is refused all the same.
func writeTestFile(path string, data []byte) error {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		what := "is not a regular file"
		if fi.Mode()&fs.ModeSymlink != 0 {
			what = "is a symbolic link: rules test writes no file through a link"
		}
		return fmt.Errorf("%s %s", layers.Printable(path), what)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

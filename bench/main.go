//go:build unix

// Command bench measures what shrinkrun costs: the wall time and peak RSS
// of plain commands against `shrinkrun --` and `shrinkrun -c`, side by side
// in one run (and against an earlier build with -baseline); the first-byte
// latency of pass-through; shrinkrun's CPU per MB of captured output when
// the child writes a line per write() and when it writes large chunks; the
// ratios of short commands (git status in both forms, git log, git diff,
// pass-through true and echo) to the plain commands, with the instructions
// shrinkrun itself executes; the throughput of the summarizers alone; the
// pass-through paths (exec and the relay: cost, liveness, a stopped server,
// memory; relay.go); and the peak RSS of shrinkrun while a command prints
// 1 GiB. It prints Markdown tables and a verdict for each target of
// docs/performance.md, and exits 1 when a target is missed.
//
//	go run ./bench            # everything, a few minutes
//	go run ./bench -quick     # fewer rounds, no 100 MB inputs, 256 MiB outputs
//
// It needs git and bash; cargo is used when present (a tiny crate is built
// once, offline). Everything it creates lives in one temporary directory,
// removed at the end (-keep keeps it). Nothing is downloaded.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

var (
	flagRuns     = flag.Int("runs", 31, "rounds per command table row; each round runs every variant once, in rotating order")
	flagQuick    = flag.Bool("quick", false, "fewer rounds (11), summarizer inputs up to 10 MB, big outputs of 256 MiB, 300000 capture lines")
	flagBigMiB   = flag.Int("big-mib", 1024, "size in MiB of the big outputs of the memory table (0 skips the table)")
	flagSumMB    = flag.String("sum-mb", "1,10,100", "summarizer input sizes in MB (10^6 bytes)")
	flagKeep     = flag.Bool("keep", false, "keep the temporary directory")
	flagBin      = flag.String("bin", "", "measure this shrinkrun binary instead of building ./cmd/shrinkrun")
	flagRows     = flag.String("rows", "", "comma-separated words: only the commands-table rows whose name contains one of them (e.g. true,status)")
	flagBaseline = flag.String("baseline", "", "also run this shrinkrun binary (an earlier build) in the commands table, interleaved, for a before/after comparison")
	flagOut      = flag.String("o", "", "also write the report to this file")
	flagOnly     = flag.String("only", "", "comma-separated sections to run: commands,latency,startup,capture,summarize,relay,memory (default all)")
	flagCeiling  = flag.Int("ceiling-mib", ceilingMiB, "peak RSS ceiling in MiB the memory table is checked against")
	flagSumChild = flag.String("summarize-one", "", "internal: measure one summarizer input in this process (RULE:BYTES:REPS)")
	flagRSSExec  = flag.String("rss-exec", "", "internal: run the command after -- and write its peak RSS in KiB to this file")
	flagEmit     = flag.String("emit", "", "internal: print LINES lines of a fake git log --oneline, CHUNK bytes per write or one line per write when 0 (LINES:CHUNK)")

	flagCaptureLines = flag.Int("capture-lines", 1000000, "lines the fake git log of the capture table prints")
)

// ceilingMiB is the documented peak RSS ceiling of one shrinkrun process,
// whatever the command prints (docs/performance.md).
const ceilingMiB = 64

func main() {
	flag.Parse()
	if *flagRSSExec != "" {
		os.Exit(rssExec(*flagRSSExec, flag.Args()))
	}
	if *flagEmit != "" {
		os.Exit(emit(*flagEmit))
	}
	if *flagSumChild != "" {
		os.Exit(summarizeChild(*flagSumChild))
	}
	if *flagQuick {
		setDefault("runs", "11")
		setDefault("sum-mb", "1,10")
		setDefault("big-mib", "256")
		setDefault("capture-lines", "300000")
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	if failed {
		os.Exit(1)
	}
}

// setDefault changes a flag's value unless the command line set it.
func setDefault(name, value string) {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	if !set {
		flag.Set(name, value)
	}
}

// report collects the Markdown output; it goes to stdout as it is written.
var (
	report  strings.Builder
	failed  bool
	verdict []string
)

func printf(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	report.WriteString(s)
	fmt.Print(s)
}

// check records a target's verdict for the summary at the end.
func check(ok bool, format string, args ...any) {
	mark := "PASS"
	if !ok {
		mark = "FAIL"
		failed = true
	}
	verdict = append(verdict, fmt.Sprintf("- %s: %s", mark, fmt.Sprintf(format, args...)))
}

func section(name string) bool {
	if *flagOnly == "" {
		return true
	}
	for s := range strings.SplitSeq(*flagOnly, ",") {
		if strings.TrimSpace(s) == name {
			return true
		}
	}
	return false
}

// env is the state shared by the sections.
type env struct {
	root      string // module root
	tmp       string // everything created lives here
	shrinkrun string // binary under test
	baseline  string // binary compared with, or ""
	base      []string
	repo      string // git repository with ~40 changed files and a long history
	changed   int    // paths git status --porcelain lists in repo
	corpus    string // rules: FAMILY/testdata/RULE under it
}

func run() error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "shrinkrun-bench-")
	if err != nil {
		return err
	}
	if *flagKeep {
		fmt.Fprintln(os.Stderr, "bench: keeping", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	e := &env{root: root, tmp: tmp, corpus: filepath.Join(root, "rules")}
	e.shrinkrun = *flagBin
	if e.shrinkrun == "" {
		e.shrinkrun = filepath.Join(tmp, "bin", "shrinkrun")
		progress("building %s", e.shrinkrun)
		cmd := exec.Command("go", "build", "-o", e.shrinkrun, "./cmd/shrinkrun")
		cmd.Dir, cmd.Stdout, cmd.Stderr = root, os.Stderr, os.Stderr
		// Built as the README says: static, no libc to load at each start.
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go build: %w", err)
		}
	}
	if e.shrinkrun, err = filepath.Abs(e.shrinkrun); err != nil {
		return err
	}
	if *flagBaseline != "" {
		if e.baseline, err = filepath.Abs(*flagBaseline); err != nil {
			return err
		}
	}
	e.base = baseEnv(tmp)
	start := time.Now()

	printf("# shrinkrun benchmark\n\n")
	printf("%s\n\n", machine(e))
	if section("commands") || section("latency") {
		progress("building the benchmark repository")
		if err := e.setupRepo(); err != nil {
			return fmt.Errorf("setting up the repository: %w", err)
		}
	}
	if section("commands") {
		if err := e.commands(); err != nil {
			return err
		}
	}
	if section("latency") {
		if err := e.latency(); err != nil {
			return err
		}
	}
	if section("startup") {
		if err := e.startup(); err != nil {
			return err
		}
	}
	if section("capture") {
		if err := e.captureCost(); err != nil {
			return err
		}
	}
	if section("summarize") {
		if err := e.summarizers(); err != nil {
			return err
		}
	}
	if section("relay") {
		if err := e.relayBench(); err != nil {
			return err
		}
	}
	if section("memory") && *flagBigMiB > 0 {
		if err := e.memory(); err != nil {
			return err
		}
	}
	printf("## Verdict\n\n%s\n\n", strings.Join(verdict, "\n"))
	printf("Load average at the end: %s. Total time %s.\n", loadavg(), time.Since(start).Round(time.Second))
	if *flagOut != "" {
		return os.WriteFile(*flagOut, []byte(report.String()), 0o644)
	}
	return nil
}

func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("run from inside the shrinkrun module")
	}
	return filepath.Dir(mod), nil
}

// baseEnv is the environment of every measured command: the caller's,
// without settings that change git's or shrinkrun's behaviour, with a
// private HOME and store. rustup and cargo keep their real homes so that
// the installed toolchain is found.
func baseEnv(tmp string) []string {
	home := filepath.Join(tmp, "home")
	os.MkdirAll(home, 0o755)
	realHome, _ := os.UserHomeDir()
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || strings.HasPrefix(k, "SHRINKRUN_") ||
			k == "HOME" || k == "XDG_CONFIG_HOME" || k == "XDG_STATE_HOME" ||
			k == "PAGER" || k == "LESS" || k == "LANG" || strings.HasPrefix(k, "LC_") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"LC_ALL=C",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Bench Author", "GIT_AUTHOR_EMAIL=author@example.com",
		"GIT_COMMITTER_NAME=Bench Committer", "GIT_COMMITTER_EMAIL=committer@example.com",
		"SHRINKRUN_STATE_DIR="+filepath.Join(tmp, "state"),
	)
	if realHome != "" {
		if os.Getenv("CARGO_HOME") == "" {
			env = append(env, "CARGO_HOME="+filepath.Join(realHome, ".cargo"))
		}
		if os.Getenv("RUSTUP_HOME") == "" {
			env = append(env, "RUSTUP_HOME="+filepath.Join(realHome, ".rustup"))
		}
	}
	return env
}

// withEnv returns base with the given NAME=value settings replacing
// earlier ones.
func withEnv(base []string, kv ...string) []string {
	out := make([]string, 0, len(base)+len(kv))
	for _, b := range base {
		name, _, _ := strings.Cut(b, "=")
		replaced := false
		for _, s := range kv {
			if n, _, _ := strings.Cut(s, "="); n == name {
				replaced = true
			}
		}
		if !replaced {
			out = append(out, b)
		}
	}
	return append(out, kv...)
}

func getenv(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	return ""
}

func machine(e *env) string {
	var b strings.Builder
	rev, _ := exec.Command("git", "-C", e.root, "describe", "--always", "--dirty").Output()
	gitv, _ := exec.Command("git", "--version").Output()
	fmt.Fprintf(&b, "- shrinkrun %s, %s %s/%s, %d CPUs\n", strings.TrimSpace(string(rev)), runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	fmt.Fprintf(&b, "- %s, %s, kernel %s\n", cpuModel(), strings.TrimSpace(string(gitv)), kernel())
	fmt.Fprintf(&b, "- load average at the start: %s (other work on the machine widens the spread; ratios come from interleaved runs)\n", loadavg())
	fmt.Fprintf(&b, "- %s", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	return b.String()
}

func cpuModel() string {
	data, _ := os.ReadFile("/proc/cpuinfo")
	for l := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(l, "model name"); ok {
			return strings.TrimSpace(strings.TrimLeft(v, " \t:"))
		}
	}
	return "unknown CPU"
}

func kernel() string {
	data, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	return strings.TrimSpace(string(data))
}

func loadavg() string {
	data, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

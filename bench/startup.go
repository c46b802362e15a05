//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// The start-up table (issue 25): what shrinkrun adds to short commands,
// as ratios to the plain command measured in the same rounds, in a
// repository of the shape (this project's own tracked files, 300
// commits, a few changed files) where git status takes milliseconds.
const (
	startupCommits  = 300
	startupModified = 5
	startupNew      = 2
)

// startupRow is one command of the start-up table. A row of the string
// form also runs `bash -c STRING`, the command shrinkrun -c stands in for.
type startupRow struct {
	name   string
	argv   []string // the plain command
	str    string   // the string form's command, "" for the argv form
	target bool     // the 1.2x target of issue 25 applies
}

func startupRows() []startupRow {
	return []startupRow{
		{name: "`git status`, argv form", argv: []string{"git", "status"}, target: true},
		{name: "`git status`, string form", argv: []string{"git", "status"}, str: "git status", target: true},
		{name: fmt.Sprintf("`git log --oneline`, %d commits", startupCommits+1), argv: []string{"git", "log", "--oneline"}},
		{name: fmt.Sprintf("`git diff`, %d files", startupModified), argv: []string{"git", "diff"}},
		{name: "`true`, pass-through", argv: []string{"true"}},
		{name: "`echo`, pass-through, string form", argv: []string{"echo", "hello"}, str: "echo hello"},
	}
}

// startup prints the start-up table: every row's variants run in rotating
// order, the machine's load before and after, and, when valgrind is
// installed, the instructions the shrinkrun process itself executes
// (cachegrind, children not followed), which unlike times do not move with
// the load.
func (e *env) startup() error {
	repo, err := e.setupStartupRepo()
	if err != nil {
		return fmt.Errorf("setting up the start-up repository: %w", err)
	}
	loadBefore := loadavg()
	type result struct {
		startupRow
		res          *rowResult
		instr, bInst int64
	}
	var results []result
	for _, r := range startupRows() {
		if !wanted(r.name) {
			continue
		}
		progress("start-up: %s (%d rounds)", r.name, *flagRuns)
		through := func(bin string) []string {
			if r.str != "" {
				return []string{bin, "-c", r.str}
			}
			return append([]string{bin, "--"}, r.argv...)
		}
		vs := []variant{{name: "plain", argv: r.argv}, {name: "shrinkrun", argv: through(e.shrinkrun)}}
		if r.str != "" {
			vs = append(vs, variant{name: "bash", argv: []string{"bash", "-c", r.str}})
		}
		if e.baseline != "" {
			vs = append(vs, variant{name: "baseline", argv: through(e.baseline)})
		}
		res, err := measureRow(repo, e.base, vs, *flagRuns, 3)
		if err != nil {
			return err
		}
		rr := result{startupRow: r, res: res}
		rr.instr = instructions(repo, e.base, through(e.shrinkrun))
		if e.baseline != "" {
			rr.bInst = instructions(repo, e.base, through(e.baseline))
		}
		results = append(results, rr)
	}
	printf("## Start-up: short commands against the plain command\n\n")
	printf("Median of %d interleaved rounds after 3 warm-up rounds, in a repository of this project's own tracked files with %d commits and %d changed files. ", *flagRuns, startupCommits+1, startupModified+startupNew)
	printf("*ratio* is shrinkrun's median over the plain command's; a string-form row also gives it over `bash -c`, which `shrinkrun -c` stands in for. ")
	printf("*min ratio* is the ratio of the fastest runs, the least disturbed by other work on a loaded machine. ")
	printf("*CPU added* is user plus system time of the whole tree over the plain command's. ")
	printf("*instructions* are the shrinkrun process's own (valgrind's cachegrind, the child not followed): they do not move with the machine's load; - where shrinkrun becomes the command by exec, which ends valgrind's count unreported. ")
	printf("Load average: %s at the start, %s at the end.\n\n", loadBefore, loadavg())
	printf("| command | plain ms | shrinkrun ms | ratio | min ratio | added ms | `bash -c` ms | ratio to `bash -c` | CPU added ms | peak RSS MiB | instructions |")
	if e.baseline != "" {
		printf(" before ms | before ratio | before min ratio | before CPU added ms | before instructions |")
	}
	printf("\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	if e.baseline != "" {
		printf(" ---: | ---: | ---: | ---: | ---: |")
	}
	printf("\n")
	for _, r := range results {
		plain, sr := r.res.wall("plain"), r.res.wall("shrinkrun")
		bash, toBash := "-", "-"
		if r.str != "" {
			bash, toBash = ms(r.res.wall("bash")), ratio(sr, r.res.wall("bash"))
		}
		printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |", r.name, ms(plain), ms(sr), ratio(sr, plain),
			ratio(r.res.fastest("shrinkrun"), r.res.fastest("plain")), ms(sr-plain),
			bash, toBash, ms(r.res.cpu("shrinkrun")-r.res.cpu("plain")), mib(r.res.rss("shrinkrun")), count(r.instr))
		if e.baseline != "" {
			b := r.res.wall("baseline")
			printf(" %s | %s | %s | %s | %s |", ms(b), ratio(b, plain), ratio(r.res.fastest("baseline"), r.res.fastest("plain")),
				ms(r.res.cpu("baseline")-r.res.cpu("plain")), count(r.bInst))
		}
		printf("\n")
		if r.target {
			check(float64(sr) <= 1.2*float64(plain), "%s: shrinkrun %s ms vs plain %s ms (%s; issue 25's target <= 1.2x, set on a quiet 16-core machine)", r.name, ms(sr), ms(plain), ratio(sr, plain))
		}
	}
	printf("\n")
	return nil
}

// setupStartupRepo builds the start-up table's repository: this project's
// tracked files committed on top of a generated history, then a few edited
// and a few new files.
func (e *env) setupStartupRepo() (string, error) {
	repo := filepath.Join(e.tmp, "startup-repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		return "", err
	}
	if _, err := e.git(repo, nil, "init", "-q", "-b", "main"); err != nil {
		return "", err
	}
	if _, err := e.git(repo, strings.NewReader(history(startupCommits)), "fast-import", "--quiet"); err != nil {
		return "", err
	}
	if _, err := e.git(repo, nil, "reset", "-q", "--hard", "main"); err != nil {
		return "", err
	}
	archive, err := exec.Command("git", "-C", e.root, "archive", "HEAD").Output()
	if err != nil {
		return "", fmt.Errorf("git archive of the project: %w", err)
	}
	if err := untar(archive, repo); err != nil {
		return "", err
	}
	if _, err := e.git(repo, nil, "add", "-A"); err != nil {
		return "", err
	}
	if _, err := e.git(repo, nil, "commit", "-q", "-m", "Import the project sources"); err != nil {
		return "", err
	}
	out, err := e.git(repo, nil, "ls-files", "*.go")
	if err != nil {
		return "", err
	}
	files := strings.Fields(string(out))
	if len(files) < startupModified {
		return "", fmt.Errorf("only %d Go files to edit", len(files))
	}
	for i := range startupModified {
		if err := editEveryLine(filepath.Join(repo, files[i*len(files)/startupModified])); err != nil {
			return "", err
		}
	}
	for i := range startupNew {
		if err := os.WriteFile(filepath.Join(repo, fmt.Sprintf("note%d.md", i)), []byte("# A note\n"), 0o644); err != nil {
			return "", err
		}
	}
	_, err = e.git(repo, nil, "status", "--porcelain") // refreshes the index
	return repo, err
}

var irefs = regexp.MustCompile(`I\s+refs:\s+([0-9,]+)`)

// instructions counts the instructions argv's own process executes, under
// valgrind's cachegrind; 0 when valgrind is not installed or fails, or
// when the process execs the command (pass-through by exec), which ends the
// count unreported. Go's
// asynchronous preemption is turned off for the count: valgrind does not
// deliver its signals the way the kernel does.
func instructions(dir string, env, argv []string) int64 {
	vg, err := exec.LookPath("valgrind")
	if err != nil {
		return 0
	}
	log, err := os.CreateTemp("", "shrinkrun-bench-vg-")
	if err != nil {
		return 0
	}
	log.Close()
	defer os.Remove(log.Name())
	args := append([]string{vg, "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", "--log-file=" + log.Name()}, argv...)
	cmd := command(dir, withEnv(env, "GODEBUG=asyncpreemptoff=1"), args)
	cmd.Run()
	data, _ := os.ReadFile(log.Name())
	m := irefs.FindSubmatch(data)
	if m == nil {
		return 0
	}
	n, _ := strconv.ParseInt(strings.ReplaceAll(string(m[1]), ",", ""), 10, 64)
	return n
}

// count prints an instruction count in thousands, or "-" when there is
// none.
func count(n int64) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%dK", (n+500)/1000)
}

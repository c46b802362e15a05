//go:build unix

package main

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Shape of the benchmark repository.
const (
	historyCommits = 3000 // git log --oneline prints this many lines
	sourceCopies   = 8    // copies of this project's tracked files
	modifiedFiles  = 30   // every line edited: the large git diff
	stagedFiles    = 4    // of the modified ones
	deletedFiles   = 3
	untrackedFiles = 7 // so that git status lists 40 paths
)

// git runs git in dir with the benchmark environment.
func (e *env) git(dir string, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, e.base, stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out, nil
}

// setupRepo builds the repository the git rows run in: a history of
// historyCommits commits, then sourceCopies copies of this project's own
// tracked files, then a working tree with 40 changed entries whose diff is
// large. Everything is generated locally from the project itself.
func (e *env) setupRepo() error {
	e.repo = filepath.Join(e.tmp, "repo")
	if err := os.MkdirAll(e.repo, 0o755); err != nil {
		return err
	}
	if _, err := e.git(e.repo, nil, "init", "-q", "-b", "main"); err != nil {
		return err
	}
	if _, err := e.git(e.repo, strings.NewReader(history(historyCommits)), "fast-import", "--quiet"); err != nil {
		return err
	}
	if _, err := e.git(e.repo, nil, "reset", "-q", "--hard", "main"); err != nil {
		return err
	}
	archive, err := exec.Command("git", "-C", e.root, "archive", "HEAD").Output()
	if err != nil {
		return fmt.Errorf("git archive of the project: %w", err)
	}
	for k := range sourceCopies {
		if err := untar(archive, filepath.Join(e.repo, fmt.Sprintf("copy%d", k))); err != nil {
			return err
		}
	}
	if _, err := e.git(e.repo, nil, "add", "-A"); err != nil {
		return err
	}
	if _, err := e.git(e.repo, nil, "commit", "-q", "-m", "Import the project sources"); err != nil {
		return err
	}
	out, err := e.git(e.repo, nil, "ls-files")
	if err != nil {
		return err
	}
	var candidates []string
	for f := range strings.Lines(string(out)) {
		f = strings.TrimSpace(f)
		if strings.HasSuffix(f, ".go") || strings.HasSuffix(f, ".md") {
			candidates = append(candidates, f)
		}
	}
	slices.Sort(candidates)
	need := modifiedFiles + deletedFiles
	if len(candidates) < need {
		return fmt.Errorf("only %d source files to edit", len(candidates))
	}
	step := len(candidates) / need
	var picked []string
	for i := range need {
		picked = append(picked, candidates[i*step])
	}
	for i, f := range picked {
		p := filepath.Join(e.repo, f)
		if i >= modifiedFiles {
			if err := os.Remove(p); err != nil {
				return err
			}
			continue
		}
		if err := editEveryLine(p); err != nil {
			return err
		}
		if i < stagedFiles {
			if _, err := e.git(e.repo, nil, "add", f); err != nil {
				return err
			}
		}
	}
	for i := range untrackedFiles {
		// In tracked directories, so that git lists each file.
		p := filepath.Join(e.repo, fmt.Sprintf("copy%d", i%sourceCopies), fmt.Sprintf("note%d.md", i))
		if err := os.WriteFile(p, []byte("# New note\n\nNot yet added.\n"), 0o644); err != nil {
			return err
		}
	}
	out, err = e.git(e.repo, nil, "status", "--porcelain") // also refreshes the index
	e.changed = strings.Count(string(out), "\n")
	return err
}

// history renders a git fast-import stream of n commits on main, each
// changing one small file, with varied one-line messages.
func history(n int) string {
	areas := []string{"runner", "classify", "summarize", "store", "docs", "cmd", "ci", "bench"}
	verbs := []string{"fix", "add", "explain", "simplify", "test", "rename", "bound", "document"}
	objects := []string{"the capture limit", "a corner case in quoting", "the block header",
		"signal relay", "the raw output store", "prune timing", "exit codes", "the budget"}
	var b strings.Builder
	for i := 1; i <= n; i++ {
		msg := fmt.Sprintf("%s: %s %s (%d)\n", areas[i%len(areas)], verbs[(i/8)%len(verbs)], objects[(i/64)%len(objects)], i)
		content := fmt.Sprintf("change %d\n", i)
		when := 1735689600 + i*600
		fmt.Fprintf(&b, "commit refs/heads/main\nmark :%d\n", i)
		fmt.Fprintf(&b, "author Bench Author <author@example.com> %d +0000\n", when)
		fmt.Fprintf(&b, "committer Bench Committer <committer@example.com> %d +0000\n", when)
		fmt.Fprintf(&b, "data %d\n%s", len(msg), msg)
		if i > 1 {
			fmt.Fprintf(&b, "from :%d\n", i-1)
		}
		fmt.Fprintf(&b, "M 100644 inline HISTORY\ndata %d\n%s\n", len(content), content)
	}
	return b.String()
}

// editEveryLine changes every non-blank line of a file, as a large
// refactoring would.
func editEveryLine(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var b strings.Builder
	for l := range strings.Lines(string(data)) {
		body := strings.TrimSuffix(l, "\n")
		if strings.TrimSpace(body) != "" {
			body += " // edited"
		}
		b.WriteString(body)
		b.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// untar extracts the regular files of a tar archive under dir.
func untar(archive []byte, dir string) error {
	tr := tar.NewReader(bytes.NewReader(archive))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(p, dir+string(filepath.Separator)) {
			return fmt.Errorf("archive path %q escapes", h.Name)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return err
		}
		if err := os.WriteFile(p, data, os.FileMode(h.Mode)&0o755|0o600); err != nil {
			return err
		}
	}
}

// fakeCargo writes a `cargo` script into dir that prints a recorded cargo
// test run from the corpus (its stdout and stderr) and exits 101, as the
// real run did. The summarizer path is then timed without compiling.
func (e *env) fakeCargo(dir, corpusCase string) error {
	base := filepath.Join(e.corpus, "cargo", "testdata", "cargo_test", corpusCase)
	for _, ext := range []string{".stdout", ".stderr"} {
		if _, err := os.Stat(base + ext); err != nil {
			return fmt.Errorf("corpus case %s: %w", corpusCase, err)
		}
	}
	script := fmt.Sprintf("#!/bin/sh\ncat '%s.stderr' >&2\ncat '%s.stdout'\nexit 101\n", base, base)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "cargo"), []byte(script), 0o755)
}

// biggestCase returns the cargo_test corpus case with the most output.
func (e *env) biggestCase(rule string) (string, error) {
	metas, err := filepath.Glob(filepath.Join(e.corpus, "*", "testdata", rule, "*.meta"))
	if err != nil || len(metas) == 0 {
		return "", fmt.Errorf("no corpus for %s in %s", rule, e.corpus)
	}
	best, bestSize := "", int64(-1)
	for _, m := range metas {
		base := strings.TrimSuffix(m, ".meta")
		var size int64
		for _, ext := range []string{".stdout", ".stderr"} {
			if fi, err := os.Stat(base + ext); err == nil {
				size += fi.Size()
			}
		}
		if size > bestSize {
			best, bestSize = filepath.Base(base), size
		}
	}
	return best, nil
}

// tinyCrate writes a std-only crate with a few passing tests and builds its
// tests once, offline. It returns "" when cargo is not installed.
func (e *env) tinyCrate() (string, []string, error) {
	env := e.base
	cargo, err := exec.LookPath("cargo")
	if err != nil {
		home, _ := os.UserHomeDir()
		cargo = filepath.Join(home, ".cargo", "bin", "cargo")
		if _, err := os.Stat(cargo); err != nil {
			return "", nil, nil
		}
		env = withEnv(env, "PATH="+filepath.Dir(cargo)+string(os.PathListSeparator)+getenv(env, "PATH"))
	}
	dir := filepath.Join(e.tmp, "crate")
	files := map[string]string{
		"Cargo.toml": "[package]\nname = \"tiny\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
		"src/lib.rs": tinyLib(),
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return "", nil, err
		}
	}
	cmd := exec.Command(cargo, "test", "--offline", "--no-run")
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", nil, fmt.Errorf("building the tiny crate: %w\n%s", err, out)
	}
	return dir, env, nil
}

func tinyLib() string {
	var b strings.Builder
	b.WriteString("pub fn add(a: u64, b: u64) -> u64 { a + b }\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n")
	for i := range 40 {
		fmt.Fprintf(&b, "    #[test]\n    fn add_%d() { assert_eq!(add(%d, 1), %d); }\n", i, i, i+1)
	}
	b.WriteString("}\n")
	return b.String()
}

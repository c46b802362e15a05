package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/shrinkrun/shrinkrun/agents/clients"
	"github.com/shrinkrun/shrinkrun/rules/layers"
)

const trustHelp = `Usage: shrinkrun trust [--yes] [FILE.toml...]
       shrinkrun trust --list

Trusts the rule files of the repository the working directory is in
(.shrinkrun/rules/*.toml, or the FILEs named): their SHA-256 is pinned in
the trust store in shrinkrun's state directory, and from then on they
apply, before the built-in rules. A file that changes stops applying, with
a notice, until it is trusted again. A cloned repository cannot change
what an agent is shown: only you can trust its rules. Read each file
first; shrinkrun prints each with what it matches before asking.

It asks for confirmation on a terminal; without one, --yes confirms.

  --yes   trust without asking
  --list  list the trusted files, and whether each is unchanged
`

// trustVerb is shrinkrun trust: it pins the content of a repository's
// rule files in the trust store.
func trustVerb(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := newVerbFlags("trust", trustHelp)
	yes := fl.Bool("yes", false, "")
	list := fl.Bool("list", false, "")
	if code, done := fl.parse(args, nil, stdout, stderr); done {
		return code
	}
	if *list {
		if fl.NArg() > 0 {
			return fl.fail(stderr, errors.New("--list takes no file"))
		}
		return trustList(stdout, stderr)
	}
	if why := agentShell(stdin); why != "" {
		fmt.Fprintf(stderr, "shrinkrun: trust: %s: an agent does not trust a repository's rules, you do, from a terminal of your own (shrinkrun trust there)\n", why)
		return 1
	}
	files, err := projectFiles(fl.Args())
	if err != nil {
		return fl.fail(stderr, err)
	}
	var good []layers.File
	for _, f := range files {
		if f.State == layers.NotLoaded {
			fmt.Fprintf(stderr, "shrinkrun: trust: %s; not trusted (fix it, then trust it)\n", f.Problem())
			continue
		}
		if err := f.Rule.Check(); err != nil {
			fmt.Fprintf(stderr, "shrinkrun: trust: rule file %v; not trusted (fix it, then trust it)\n", err)
			continue
		}
		fmt.Fprintf(stdout, "%s\n  rule %s: %s\n  sha256:%s\n", f.Path, f.Rule.ID, strings.Join(f.Rule.Usage, ", "), f.Hash)
		good = append(good, f)
	}
	if len(good) == 0 {
		fmt.Fprintln(stderr, "shrinkrun: trust: no rule file to trust")
		return 1
	}
	if !*yes {
		in, ok := stdin.(*os.File)
		if !ok || !isTerminal(in) {
			return fl.fail(stderr, errors.New("confirm with --yes (stdin is not a terminal to ask on)"))
		}
		fmt.Fprintf(stdout, "Trust these %d rule files? Their rules will change what shrinkrun shows for their commands. [y/N] ", len(good))
		answer, _ := bufio.NewReader(stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintln(stdout, "nothing trusted")
			return 1
		}
	}
	err = editTrust(func(t layers.Trust) {
		for _, f := range good {
			t[f.Path] = f.Hash
		}
	})
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun: trust: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "trusted %d rule files\n", len(good))
	return 0
}

// agentShell says why this trust verb is an agent's command, "" when it is
// not: a client's marker is set in the environment (clients.Marked) and
// stdin is no terminal a person answers on. The notice that a project rule
// file is not trusted reaches the agent (it is on the command's stderr),
// and the agent's own shrinkrun trust --yes must not be how a cloned
// repository gets its rules applied.
func agentShell(stdin io.Reader) string {
	marked := clients.Marked(os.Getenv)
	if len(marked) == 0 {
		return ""
	}
	if in, ok := stdin.(*os.File); ok && isTerminal(in) {
		return ""
	}
	return fmt.Sprintf("this shell runs %s's commands (its marker is set in the environment)", marked[0])
}

const untrustHelp = `Usage: shrinkrun untrust [FILE.toml...]

Removes the repository's rule files (.shrinkrun/rules/*.toml, or the FILEs
named) from the trust store: they stop applying. A file that was removed
from the repository is named by its path.
`

// untrustVerb is shrinkrun untrust.
func untrustVerb(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fl := newVerbFlags("untrust", untrustHelp)
	if code, done := fl.parse(args, nil, stdout, stderr); done {
		return code
	}
	var paths []string
	for _, a := range fl.Args() {
		p, err := filepath.Abs(a)
		if err != nil {
			return fl.fail(stderr, err)
		}
		paths = append(paths, p)
	}
	if len(paths) == 0 {
		files, err := projectFiles(nil)
		if err != nil {
			return fl.fail(stderr, err)
		}
		for _, f := range files {
			paths = append(paths, f.Path)
		}
	}
	n := 0
	err := editTrust(func(t layers.Trust) {
		for _, p := range paths {
			if _, ok := t[p]; ok {
				delete(t, p)
				n++
				fmt.Fprintf(stdout, "untrusted %s\n", p)
			}
		}
	})
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun: untrust: %v\n", err)
		return 1
	}
	if n == 0 {
		fmt.Fprintln(stdout, "none of these files was trusted")
	}
	return 0
}

// projectFiles reads the rule files of the repository the working
// directory is in, or the files named, which must be in its
// .shrinkrun/rules.
func projectFiles(names []string) ([]layers.File, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	root := layers.RepoRoot(wd)
	if root == "" {
		return nil, errors.New("the working directory is in no repository (no .git above it): project rule files are .shrinkrun/rules/*.toml at a repository's root")
	}
	files := layers.ReadProject(root)
	if len(files) == 0 {
		return nil, fmt.Errorf("%s holds no rule file (NAME.toml)", layers.ProjectDir(root))
	}
	if len(names) == 0 {
		return files, nil
	}
	var picked []layers.File
	for _, n := range names {
		p, err := filepath.Abs(n)
		if err != nil {
			return nil, err
		}
		i := slices.IndexFunc(files, func(f layers.File) bool { return f.Path == p })
		if i < 0 {
			return nil, fmt.Errorf("%s is not a rule file of %s", n, layers.ProjectDir(root))
		}
		picked = append(picked, files[i])
	}
	return picked, nil
}

// editTrust changes the trust store with edit, under the state directory's
// checks.
func editTrust(edit func(layers.Trust)) error {
	state, err := openStateDir(true)
	if err != nil {
		return err
	}
	defer state.Close()
	t, err := layers.ReadTrust(state)
	if err != nil {
		return err
	}
	edit(t)
	return t.Write(state)
}

// trustList prints the trust store: each file, and whether it is
// unchanged, changed or gone.
func trustList(stdout, stderr io.Writer) int {
	t, err := readTrust()
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun: trust: %v\n", err)
		return 1
	}
	if len(t) == 0 {
		fmt.Fprintln(stdout, "no rule file is trusted")
		return 0
	}
	paths := make([]string, 0, len(t))
	for p := range t {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		state := "unchanged"
		switch hash, err := layers.HashFile(p); {
		case err != nil:
			state = "cannot be read: " + err.Error()
		case hash != t[p]:
			state = "changed since trusted: it does not apply"
		}
		fmt.Fprintf(stdout, "%s  sha256:%s  %s\n", p, t[p], state)
	}
	return 0
}

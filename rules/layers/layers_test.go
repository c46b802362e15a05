package layers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/privdir"
	"github.com/shrinkrun/shrinkrun/rules/declare"
)

const rule = "[match]\ncommand = [\"tool\"]\n"

// world is a home with a user rules directory, a repository with a
// project rules directory and a working directory inside it, and a state
// directory for the trust store.
type world struct {
	home, repo, wd, user, project string
	state                         *privdir.Dir
}

func newWorld(t testing.TB) *world {
	t.Helper()
	base := t.TempDir()
	w := &world{home: filepath.Join(base, "home"), repo: filepath.Join(base, "repo")}
	w.wd = filepath.Join(w.repo, "src", "deep")
	w.user = filepath.Join(w.home, ".config", "shrinkrun", "rules")
	w.project = ProjectDir(w.repo)
	for _, d := range []string{w.wd, filepath.Join(w.repo, ".git"), w.user, w.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	state, err := privdir.Open(filepath.Join(base, "state"), true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { state.Close() })
	w.state = state
	return w
}

func (w *world) getenv(k string) string {
	if k == "HOME" {
		return w.home
	}
	return ""
}

func (w *world) find(t *testing.T) Set {
	t.Helper()
	return Find(w.wd, w.getenv, func() Trust {
		tr, err := ReadTrust(w.state)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	})
}

func write(t testing.TB, path, src string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

func ids(rs []*declare.Rule) string {
	var s []string
	for _, r := range rs {
		s = append(s, r.ID)
	}
	return strings.Join(s, " ")
}

// TestTrust: a user rule applies; a project rule applies only once its
// content is trusted, and stops when the file changes, each with its
// problem said.
func TestTrust(t *testing.T) {
	w := newWorld(t)
	write(t, filepath.Join(w.user, "mine.toml"), rule)
	proj := filepath.Join(w.project, "theirs.toml")
	write(t, proj, rule)

	s := w.find(t)
	if s.Root != w.repo || ids(s.Rules()) != "bash.mine" {
		t.Fatalf("untrusted: root %q, rules %q", s.Root, ids(s.Rules()))
	}
	if p := s.Files[0].Problem(); s.Files[0].State != Untrusted || !strings.Contains(p, "is not trusted") {
		t.Errorf("untrusted file: %v %q", s.Files[0].State, p)
	}

	f := ReadProject(w.repo)[0] // what shrinkrun trust pins
	if err := (Trust{f.Path: f.Hash}).Write(w.state); err != nil {
		t.Fatal(err)
	}
	if s := w.find(t); ids(s.Rules()) != "bash.theirs bash.mine" {
		t.Fatalf("trusted: rules %q (the project's come first)", ids(s.Rules()))
	}

	write(t, proj, rule+"# changed\n")
	s = w.find(t)
	if ids(s.Rules()) != "bash.mine" || s.Files[0].State != Changed || !strings.Contains(s.Files[0].Problem(), "changed since you trusted it") {
		t.Fatalf("changed: rules %q, %q", ids(s.Rules()), s.Files[0].Problem())
	}
	if tr, _ := ReadTrust(w.state); tr[proj] != f.Hash {
		t.Errorf("trust store: %v", tr)
	}
}

// TestRefused: what privdir refuses is not read (a link, a file others
// may write, one too large), and a file that does not parse says where;
// none stops the others.
func TestRefused(t *testing.T) {
	w := newWorld(t)
	write(t, filepath.Join(w.user, "good.toml"), rule)
	write(t, filepath.Join(w.user, "broken.toml"), "[match\n")
	write(t, filepath.Join(w.user, "big.toml"), rule+strings.Repeat("#", declare.MaxFileBytes))
	write(t, filepath.Join(w.user, "open.toml"), rule)
	os.Chmod(filepath.Join(w.user, "open.toml"), 0o666)
	os.Symlink(filepath.Join(w.user, "good.toml"), filepath.Join(w.user, "link.toml"))
	write(t, filepath.Join(w.user, "notes.txt"), "not a rule")
	s := w.find(t)
	if ids(s.Rules()) != "bash.good" {
		t.Errorf("rules %q", ids(s.Rules()))
	}
	want := map[string]string{
		"big.toml":    "a rule file holds at most",
		"broken.toml": "broken.toml:2:",
		"link.toml":   "is a symbolic link",
		"open.toml":   "is writable by other users",
	}
	for _, f := range s.Files {
		name := filepath.Base(f.Path)
		if w, ok := want[name]; ok && (f.State != NotLoaded || !strings.Contains(f.Problem(), w)) {
			t.Errorf("%s: %v %q, want %q", name, f.State, f.Problem(), w)
		}
	}
	if len(s.Files) != 5 {
		t.Errorf("%d files, want 5 (notes.txt is no rule file)", len(s.Files))
	}
}

// TestNoFiles: outside a repository, with no rules directory, nothing is
// found and the trust store is never read.
func TestNoFiles(t *testing.T) {
	base := t.TempDir()
	s := Find(base, func(string) string { return "" }, func() Trust { t.Fatal("trust read"); return nil })
	if s.Root != "" || len(s.Files) != 0 || s.UserDir != "" {
		t.Errorf("%+v", s)
	}
	if got := UserDir(func(k string) string { return map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}[k] }); got != "/x/shrinkrun/rules" {
		t.Errorf("UserDir with XDG_CONFIG_HOME: %q", got)
	}
	if got := UserDir(func(k string) string { return map[string]string{"XDG_CONFIG_HOME": "rel", "HOME": "/h"}[k] }); got != "/h/.config/shrinkrun/rules" {
		t.Errorf("UserDir with a relative XDG_CONFIG_HOME: %q", got)
	}
}

// TestNoticed: a notice is new once.
func TestNoticed(t *testing.T) {
	w := newWorld(t)
	if !Noticed(w.state, "a") || Noticed(w.state, "a") || !Noticed(w.state, "b") || !Noticed(nil, "a") {
		t.Error("Noticed")
	}
}

// BenchmarkFind measures what loading rule files adds to every command:
// none (a repository without .shrinkrun, no user directory), a user rule
// file, and a trusted project rule file.
func BenchmarkFind(b *testing.B) {
	for _, c := range []struct {
		name          string
		user, project bool
	}{{"none", false, false}, {"user", true, false}, {"project", false, true}} {
		b.Run(c.name, func(b *testing.B) {
			w := newWorld(b)
			if !c.user {
				os.RemoveAll(w.user)
			} else {
				write(b, filepath.Join(w.user, "mine.toml"), benchRule)
			}
			if !c.project {
				os.RemoveAll(filepath.Dir(w.project))
			} else {
				write(b, filepath.Join(w.project, "theirs.toml"), benchRule)
				f := ReadProject(w.repo)[0]
				(Trust{f.Path: f.Hash}).Write(w.state)
			}
			trust := func() Trust { tr, _ := ReadTrust(w.state); return tr }
			b.ResetTimer()
			for b.Loop() {
				if s := Find(w.wd, w.getenv, trust); len(s.Rules()) != btoi(c.user)+btoi(c.project) {
					b.Fatalf("%d rules", len(s.Rules()))
				}
			}
		})
	}
}

func btoi(v bool) int {
	if v {
		return 1
	}
	return 0
}

// benchRule is a rule of typical size: a dozen patterns.
var benchRule = func() string {
	src, err := os.ReadFile("../shipped/testdata/apt_get_install.toml")
	if err != nil {
		panic(err)
	}
	return string(src)
}()

// TestLinkedPaths: a file trusted through one path to the repository is
// trusted through another (a link to it); a repository whose rules
// directory links to another's trusted files borrows none of its trust: the
// link is not followed.
func TestLinkedPaths(t *testing.T) {
	w := newWorld(t)
	write(t, filepath.Join(w.project, "theirs.toml"), rule)
	f := ReadProject(w.repo)[0]
	if err := (Trust{f.Path: f.Hash}).Write(w.state); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(filepath.Dir(w.repo), "link")
	if err := os.Symlink(w.repo, link); err != nil {
		t.Fatal(err)
	}
	w.wd = filepath.Join(link, "src")
	if s := w.find(t); ids(s.Rules()) != "bash.theirs" {
		t.Errorf("through a link to the repository: %q (%s)", ids(s.Rules()), s.Files[0].Problem())
	}
	other := filepath.Join(filepath.Dir(w.repo), "other")
	os.MkdirAll(filepath.Join(other, ".git"), 0o755)
	os.MkdirAll(filepath.Join(other, ".shrinkrun"), 0o755)
	if err := os.Symlink(w.project, ProjectDir(other)); err != nil {
		t.Fatal(err)
	}
	w.wd = other
	if s := w.find(t); len(s.Rules()) != 0 || s.Files[0].State != NotLoaded || !strings.Contains(s.Files[0].Problem(), "symbolic link") {
		t.Errorf("a repository linking to another's rules: %q %v", ids(s.Rules()), s.Files)
	}
}

// TestUntrustedNotRead: Find does not read a project file the trust store
// does not name: a cloned repository's files cost every command run in it
// nothing but their names. Before, each was read and parsed on every
// command: 64 files of 64 KiB made each command there take about 270 ms,
// and a broken one was reported as broken, which only reading tells.
func TestUntrustedNotRead(t *testing.T) {
	w := newWorld(t)
	write(t, filepath.Join(w.project, "broken.toml"), "[match\n")
	s := w.find(t)
	if len(s.Files) != 1 || s.Files[0].State != Untrusted || s.Files[0].Rule != nil {
		t.Errorf("an untrusted broken file: %+v", s.Files)
	}
	if f := ReadProject(w.repo); len(f) != 1 || f[0].State != NotLoaded {
		t.Errorf("ReadProject (what shrinkrun trust shows) reads it: %+v", f)
	}
}

// Package denytest reads and writes the recorded decisions of the real
// clients (deny/testdata/decisions/CLIENT.txtar) that the deny matchers
// are held to: agents/e2e records them, package deny's tests replay them.
// It is test support, imported only by tests.
package denytest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"
)

// Dir is the directory of the recorded decisions.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", "decisions")
}

// Set is one set of rules and the client's decision on each command.
type Set struct {
	Name string
	// Files are the rule files, by the suffix of their name in the
	// archive (".rules", ".toml", ".json"), as written.
	Files map[string]string
	Cases []Case
}

// Case is one command and the client's decision.
type Case struct {
	Command string
	// Verdict is "deny", "run", or "?" when not recorded yet.
	Verdict string
	// Refused says why shrinkrun refuses a command the client runs; ""
	// when shrinkrun answers as the client does.
	Refused string
}

// Corpus is one client's archive.
type Corpus struct {
	Path string
	ar   *txtar.Archive
	Sets []*Set
}

// Load reads the archive of a client (claude, codex, gemini).
func Load(client string) (*Corpus, error) {
	path := filepath.Join(Dir(), client+".txtar")
	ar, err := txtar.ParseFile(path)
	if err != nil {
		return nil, err
	}
	c := &Corpus{Path: path, ar: ar}
	sets := map[string]*Set{}
	for _, f := range ar.Files {
		name, suffix, ok := strings.Cut(f.Name, ".")
		if !ok {
			return nil, fmt.Errorf("%s: %s has no suffix", path, f.Name)
		}
		s := sets[name]
		if s == nil {
			s = &Set{Name: name, Files: map[string]string{}}
			sets[name] = s
			c.Sets = append(c.Sets, s)
		}
		if suffix != "decisions" {
			s.Files["."+suffix] = string(f.Data)
			continue
		}
		for i, line := range strings.Split(strings.TrimSuffix(string(f.Data), "\n"), "\n") {
			fields := strings.Split(line, "\t")
			if len(fields) < 2 || len(fields) > 3 {
				return nil, fmt.Errorf("%s: %s line %d: want VERDICT<TAB>COMMAND[<TAB># refused: WHY]", path, f.Name, i+1)
			}
			cs := Case{Verdict: fields[0], Command: fields[1]}
			if len(fields) == 3 {
				why, ok := strings.CutPrefix(fields[2], "# refused: ")
				if !ok {
					return nil, fmt.Errorf("%s: %s line %d: the third field is not \"# refused: WHY\"", path, f.Name, i+1)
				}
				cs.Refused = why
			}
			s.Cases = append(s.Cases, cs)
		}
	}
	return c, nil
}

// Save writes the archive back with the sets' current verdicts.
func (c *Corpus) Save() error {
	for i, f := range c.ar.Files {
		name, suffix, _ := strings.Cut(f.Name, ".")
		if suffix != "decisions" {
			continue
		}
		for _, s := range c.Sets {
			if s.Name != name {
				continue
			}
			var b strings.Builder
			for _, cs := range s.Cases {
				b.WriteString(cs.Verdict + "\t" + cs.Command)
				if cs.Refused != "" {
					b.WriteString("\t# refused: " + cs.Refused)
				}
				b.WriteString("\n")
			}
			c.ar.Files[i].Data = []byte(b.String())
		}
	}
	return os.WriteFile(c.Path, txtar.Format(c.ar), 0o644)
}

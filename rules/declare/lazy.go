package declare

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// Lazy is a rule file compiled into shrinkrun (the shipped rules written in
// the format): it is read and its patterns compiled the first time the
// table asks it about a command, so a rule that no command reaches costs
// nothing, and the table stays a plain literal with no work at start.
type Lazy struct {
	fsys   fs.FS
	name   string
	source string
	rule   func() (*Rule, error)
}

// Embedded returns the rule in the file name of fsys, read on first use;
// source is where the file is kept, for messages.
func Embedded(fsys fs.FS, name, source string) *Lazy {
	l := &Lazy{fsys: fsys, name: name, source: source}
	l.rule = sync.OnceValues(func() (*Rule, error) {
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		return Parse(name, source, src)
	})
	return l
}

// ID is the rule's id, from the file's name alone.
func (l *Lazy) ID() string {
	id, _ := ID(l.name)
	return id
}

// Name is the file's base name, NAME.toml.
func (l *Lazy) Name() string { return path.Base(l.name) }

// Path is where the file is kept in shrinkrun's source.
func (l *Lazy) Path() string { return l.source }

// File is the file's bytes, for shrinkrun rules eject.
func (l *Lazy) File() ([]byte, error) { return fs.ReadFile(l.fsys, l.name) }

// Cases returns the test cases beside the file (NAME/CASE.*), by their
// base names.
func (l *Lazy) Cases() (map[string][]byte, error) {
	dir := strings.TrimSuffix(l.name, ".toml")
	des, err := fs.ReadDir(l.fsys, dir)
	if err != nil {
		return nil, err
	}
	cases := map[string][]byte{}
	for _, de := range des {
		data, err := fs.ReadFile(l.fsys, path.Join(dir, de.Name()))
		if err != nil {
			return nil, err
		}
		cases[de.Name()] = data
	}
	return cases, nil
}

// Rule returns the rule, read on the first call.
func (l *Lazy) Rule() (*Rule, error) { return l.rule() }

// Match is Rule.Match; a file that does not load (a bug the tests catch)
// recognizes nothing.
func (l *Lazy) Match(argv []string) classify.Answer {
	r, err := l.rule()
	if err != nil {
		return classify.Other(0, "rule file %s does not load: %v", l.name, err)
	}
	return r.Match(argv)
}

// Summarize is Rule.Summarize; it is only called after Match accepted.
func (l *Lazy) Summarize(run *summarize.Run) *summarize.Body {
	r, err := l.rule()
	if err != nil {
		panic(fmt.Sprintf("rule file %s does not load: %v", l.name, err))
	}
	return r.Summarize(run)
}

// Find is Rule.Find.
func (l *Lazy) Find(run *summarize.Run, streams []summarize.Stream) {
	if r, err := l.rule(); err == nil {
		r.Find(run, streams)
	}
}

// Env is Rule.Env.
func (l *Lazy) Env(argv []string, getenv func(string) string) string {
	if r, err := l.rule(); err == nil {
		return r.Env(argv, getenv)
	}
	return ""
}

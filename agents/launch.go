package agents

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The shell route. A client that runs its commands with the bash it finds
// on PATH (Gemini CLI, Qwen Code) or with the shell a setting or variable
// names (opencode's shell, Copilot CLI's COPILOT_BASH_PATH) gets a link
// named bash to shrinkrun, which is bash for everything it does not
// summarize (cmd/shrinkrun/bash.go). The client decides its permission on
// the command as the model wrote it, before it starts bash, so no outcome
// changes. Each client's link has a directory of its own, named after the
// client: the link's directory says which client it serves, and each comes
// and goes with its own client's entry.

// LinkPath is the bash link for client name: $XDG_DATA_HOME/shrinkrun/shell/
// NAME/bash, else ~/.local/share/shrinkrun/shell/NAME/bash.
func LinkPath(e Env, name string) (string, error) {
	data := ""
	if e.Getenv != nil {
		data = e.Getenv("XDG_DATA_HOME")
	}
	if data == "" {
		if e.Home == "" {
			return "", errors.New("no home directory")
		}
		data = filepath.Join(e.Home, ".local", "share")
	}
	return filepath.Abs(filepath.Join(data, "shrinkrun", "shell", name, "bash"))
}

// isLinkPath reports whether p has the shape of a bash link shrinkrun makes
// for client name.
func isLinkPath(p, name string) bool {
	return strings.HasSuffix(p, string(filepath.Separator)+filepath.Join("shrinkrun", "shell", name, "bash"))
}

// Link makes link a symbolic link to bin. A link there already is replaced
// (one to another shrinkrun, or a dangling one); anything else is refused.
func Link(link, bin string) error {
	if !filepath.IsAbs(bin) {
		return fmt.Errorf("%q is not an absolute path", bin)
	}
	fi, err := os.Lstat(link)
	switch {
	case err == nil && fi.Mode()&fs.ModeSymlink == 0:
		return fmt.Errorf("%s exists and is not a link: remove it first", link)
	case err == nil:
		if cur, _ := os.Readlink(link); cur == bin {
			return nil
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		return err
	}
	tmp := link + ".tmp-shrinkrun"
	os.Remove(tmp)
	if err := os.Symlink(bin, tmp); err != nil {
		return err
	}
	return os.Rename(tmp, link)
}

// LinkTarget is what a bash link points at.
func LinkTarget(link string) (string, error) {
	fi, err := os.Lstat(link)
	if err != nil {
		return "", err
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return "", fmt.Errorf("%s is not a link", link)
	}
	return os.Readlink(link)
}

// Unlink removes a bash link, then its directory and the ones above it
// that init made, when they are left empty. A missing link is not an error; a
// file that is not a link is left alone.
func Unlink(link string) error {
	fi, err := os.Lstat(link)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return fmt.Errorf("%s is not a link: left alone", link)
	}
	if err := os.Remove(link); err != nil {
		return err
	}
	// The client's directory, then shell/ and shrinkrun/ when left empty.
	for dir, i := filepath.Dir(link), 0; i < 3 && os.Remove(dir) == nil; dir, i = filepath.Dir(dir), i+1 {
	}
	return nil
}

// Launch is a client that only its launch environment can point at
// shrinkrun's bash: it has no setting that names its shell. The route is a
// shell function of the client's name in the startup file of the user's
// interactive shell, which starts the client with Var set: PATH with the
// link's directory first (Gemini CLI and Qwen Code run the bash PATH finds
// first), or COPILOT_BASH_PATH naming the link (Copilot CLI).
type Launch struct {
	Name    string // as init and doctor know it
	Client  string // in messages
	Program string // the command that starts the client
	Var     string // PATH or COPILOT_BASH_PATH
}

// Launches are the clients whose route is their launch.
var Launches = []*Launch{
	{Name: "gemini", Client: "Gemini CLI", Program: "gemini", Var: "PATH"},
	{Name: "qwen", Client: "Qwen Code", Program: "qwen", Var: "PATH"},
	{Name: "copilot", Client: "Copilot CLI", Program: "copilot", Var: "COPILOT_BASH_PATH"},
}

// LookupLaunch finds a launch route by client name.
func LookupLaunch(name string) (*Launch, bool) {
	for _, l := range Launches {
		if l.Name == name {
			return l, true
		}
	}
	return nil, false
}

// RCFile is the startup file of the user's interactive shell ($SHELL),
// where the launch function goes: ~/.bashrc for bash, ${ZDOTDIR:-~}/.zshrc
// for zsh. Another shell is refused with what to set by hand.
func (l *Launch) RCFile(e Env, link string) (string, error) {
	shell := filepath.Base(e.Getenv("SHELL"))
	switch shell {
	case "bash", "", ".":
		return filepath.Join(e.Home, ".bashrc"), nil
	case "zsh":
		dir := e.Getenv("ZDOTDIR")
		if dir == "" {
			dir = e.Home
		}
		return filepath.Join(dir, ".zshrc"), nil
	}
	return "", fmt.Errorf("shrinkrun writes the %s launch function for bash and zsh, and your shell is %s: start %s with %s set as %s, or run init with SHELL=/bin/bash to write it to ~/.bashrc",
		l.Client, shell, l.Program, l.Var, l.value(link))
}

// value is what the launch sets Var to.
func (l *Launch) value(link string) string {
	if l.Var == "PATH" {
		return filepath.Dir(link) + ":$PATH"
	}
	return link
}

func (l *Launch) markers() (begin, end string) {
	return "# >>> shrinkrun init " + l.Name + " >>>", "# <<< shrinkrun init " + l.Name + " <<<"
}

// Block is the text added to the startup file: the function between two
// marker lines.
func (l *Launch) Block(link string) (string, error) {
	if !filepath.IsAbs(link) {
		return "", fmt.Errorf("%q is not an absolute path", link)
	}
	v := link
	if l.Var == "PATH" {
		v = filepath.Dir(link)
	}
	q, err := syntax.Quote(v, syntax.LangBash)
	if err != nil || strings.ContainsAny(v, "'\n") {
		return "", fmt.Errorf("cannot quote %q for the shell", v)
	}
	if l.Var == "PATH" {
		q += `:"$PATH"`
	}
	begin, end := l.markers()
	return fmt.Sprintf("%s\n# %s runs its shell commands with the bash this sets: shrinkrun's (docs/agents.md).\n%s() { %s=%s command %s \"$@\"; }\n%s\n",
		begin, l.Client, l.Program, l.Var, q, l.Program, end), nil
}

// find returns where the block lies in src, [start, end), and false when
// there is none. A begin marker without its end is an error.
func (l *Launch) find(src []byte) (int, int, bool, error) {
	begin, end := l.markers()
	i := lineIndex(src, begin)
	if i < 0 {
		return 0, 0, false, nil
	}
	j := lineIndex(src[i:], end)
	if j < 0 {
		return 0, 0, false, fmt.Errorf("%q has no %q line after it: fix the file by hand", begin, end)
	}
	stop := i + j + len(end)
	if stop < len(src) && src[stop] == '\n' {
		stop++
	}
	return i, stop, true, nil
}

// lineIndex is the offset of the first line of src that is exactly line,
// or -1.
func lineIndex(src []byte, line string) int {
	for off := 0; off <= len(src); {
		rest := src[off:]
		n := bytes.IndexByte(rest, '\n')
		cur := rest
		if n >= 0 {
			cur = rest[:n]
		}
		if string(cur) == line {
			return off
		}
		if n < 0 {
			return -1
		}
		off += n + 1
	}
	return -1
}

// launchLine matches the function line init writes, up to the value of
// its variable.
var launchLine = regexp.MustCompile(`(?m)^[\w-]+\(\) \{ (?:PATH|COPILOT_BASH_PATH)=(.*) command [\w-]+ "\$@"; \}$`)

// wordValue is the value of a shell word that is only literals and
// quotes, as Quote writes them.
func wordValue(word string) (string, bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader("x "+word), "")
	if err != nil || len(f.Stmts) != 1 {
		return "", false
	}
	c, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) != 2 {
		return "", false
	}
	var b strings.Builder
	for _, p := range c.Args[1].Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "\\$*?[{~") {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// Status reads a startup file and returns the link its launch function
// sets up ("" when the function is not in the shape init writes), and
// whether the block is there. A missing file has none.
func (l *Launch) Status(rc string) (link string, found bool, err error) {
	src, err := os.ReadFile(rc)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	i, j, ok, err := l.find(src)
	if !ok || err != nil {
		return "", false, err
	}
	m := launchLine.FindSubmatch(src[i:j])
	if m == nil {
		return "", true, nil
	}
	word := string(m[1])
	if l.Var == "PATH" {
		var ok bool
		if word, ok = strings.CutSuffix(word, `:"$PATH"`); !ok {
			return "", true, nil
		}
	}
	v, ok := wordValue(word)
	switch {
	case !ok:
		return "", true, nil
	case l.Var == "PATH":
		return filepath.Join(v, "bash"), true, nil
	}
	return v, true, nil
}

// added returns src with the block for link, replacing a block that is
// there; unchanged when exactly that block is there.
func (l *Launch) added(src []byte, link string) ([]byte, error) {
	block, err := l.Block(link)
	if err != nil {
		return nil, err
	}
	i, j, ok, err := l.find(src)
	if err != nil {
		return nil, err
	}
	if ok {
		return splice(src, i, j, block), nil
	}
	out := append([]byte{}, src...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	return append(out, block...), nil
}

// Install plans adding the launch function for link to the startup file
// rc.
func (l *Launch) Install(rc, link string) (*Change, error) {
	path, old, existed, err := read(rc)
	if err != nil {
		return nil, err
	}
	c := &Change{Path: path, Existed: existed, Old: old, KeepDir: true}
	if c.New, err = l.added(old, link); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	_, _, had, _ := l.find(old)
	backup := path + BackupSuffix
	_, berr := os.Stat(backup)
	switch {
	case !c.Changed():
		c.Note = "already installed in " + path
	case !existed:
		c.Note = fmt.Sprintf("created %s with the %s() launch function", path, l.Program)
	case had:
		c.Note = fmt.Sprintf("pointed the %s() launch function in %s at %s", l.Program, path, link)
	case berr == nil:
		// Another client's function came first: its backup is the file as
		// it was before shrinkrun, and stays so.
		c.Note = fmt.Sprintf("added the %s() launch function to %s (the file as it was before shrinkrun is kept in %s)", l.Program, path, backup)
	default:
		c.Backup = backup
		c.Note = fmt.Sprintf("added the %s() launch function to %s (the file as it was is kept in %s)", l.Program, path, backup)
	}
	return c, nil
}

// Uninstall plans removing the launch function from rc: the block is cut
// out, and when what is left is the file as it was before shrinkrun (its
// backup), the backup is what comes back, and goes; a file init created
// and left empty goes.
func (l *Launch) Uninstall(rc string) (*Change, error) {
	path, old, existed, err := read(rc)
	if err != nil {
		return nil, err
	}
	c := &Change{Path: path, Existed: existed, Old: old, New: old, KeepDir: true}
	i, j, ok, err := l.find(old)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if !ok {
		c.Note = "no shrinkrun " + l.Program + "() launch function in " + path
		return c, nil
	}
	cut := splice(old, i, j, "")
	backup := path + BackupSuffix
	saved, err := os.ReadFile(backup)
	switch {
	case err == nil && (bytes.Equal(cut, saved) || len(saved) > 0 && saved[len(saved)-1] != '\n' && bytes.Equal(cut, append(saved, '\n'))):
		// The last of shrinkrun's functions: the file as it was.
		c.New, c.Backup, c.RemoveBackup = saved, backup, true
		c.Note = "restored " + path + " from " + backup
	case errors.Is(err, fs.ErrNotExist) && len(cut) == 0:
		c.New = nil
		c.Note = "removed " + path + ", which shrinkrun had created"
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, err
	default:
		c.New = cut
		c.Note = "removed the " + l.Program + "() launch function from " + path
	}
	return c, nil
}

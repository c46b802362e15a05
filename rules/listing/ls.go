package listing

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// lsOptions are GNU ls's options (coreutils 9.1) the rule knows. Through a
// pipe ls prints an entry per line; ls -l's lines start with the entry's
// type letter. The options that put something before that letter or the
// name (-i, -s, -Z), print several entries on a line (-C, -x, -m, --format)
// or add lines of their own (--dired) pass through.
var lsOptions = options{}.
	flags("-a", "--all", "-A", "--almost-all", "-B", "--ignore-backups", "-d", "--directory",
		"-f", "-F", "--classify", "-p", "--file-type", "-G", "--no-group", "-h", "--human-readable",
		"--si", "-k", "--kibibytes", "-L", "--dereference", "-H", "--dereference-command-line",
		"--dereference-command-line-symlink-to-dir", "-N", "--literal", "-q", "--hide-control-chars",
		"--show-control-chars", "-Q", "--quote-name", "-b", "--escape", "-r", "--reverse",
		"-S", "-t", "-u", "-c", "-U", "-v", "-X", "--group-directories-first", "--author",
		"--color", "--colour", "--hyperlink").
	values("--block-size", "--hide", "-I", "--ignore", "--indicator-style", "--quoting-style",
		"--time-style", "--time", "--sort", "-w", "--width", "-T", "--tabsize").
	spell(opt{kind: flag, name: "long"}, "-l", "-g", "-o", "-n", "--numeric-uid-gid", "--full-time").
	spell(opt{kind: flag, name: "recursive"}, "-R", "--recursive").
	spell(opt{kind: flag, name: "one"}, "-1").
	refuse("puts the inode number before each entry", "-i", "--inode").
	refuse("puts the size in blocks before each entry", "-s", "--size").
	refuse("puts the security context before each entry", "-Z", "--context").
	refuse("prints several entries on a line", "-C", "-x", "-m", "--format").
	refuse("adds Emacs dired lines", "-D", "--dired").
	refuse("ends entries with NUL bytes", "--zero").
	refuse("prints no listing", "--help", "--version")

// MatchLs recognizes ls [OPTION...] [FILE...] with the options in
// lsOptions.
func MatchLs(argv []string) classify.Answer {
	_, a := walk(argv, 1, lsOptions)
	return a
}

// Ls summarizes bash.ls: its entries, directory by directory
// (docs/format.md).
func Ls(r *summarize.Run) *summarize.Body {
	p := parsed{set: map[string]string{}}
	if len(r.Argv) > 0 {
		p, _ = walk(r.Argv, 1, lsOptions)
	}
	long := p.has("long")
	if r.Terminal && !long && !p.has("one") {
		// On a terminal ls prints names in columns, which cannot be told
		// apart from names with spaces: the block counts lines.
		return lines(r)
	}
	ls := newListing()
	ls.long = long
	headings := p.has("recursive") || len(p.operands) > 1
	var g *group
	start, blank := true, false // the next line opens a listing: the first, or after an empty line
	for line := range summarize.EachLine(r.Stdout) {
		switch {
		case line == "":
			blank = true
			continue
		case strings.HasPrefix(line, "ls: "):
			ls.messages.Add(line)
			continue
		case headings && (start || blank) && strings.HasSuffix(line, ":") && !(long && isLongLine(line)):
			g = ls.group(strings.TrimSuffix(line, ":"))
			start, blank = true, false
			continue
		case long && start && isTotal(line):
			start, blank = false, false
			continue
		}
		start, blank = false, false
		switch {
		case long && !isLongLine(line):
			ls.unread.Add(line)
			continue
		case long:
			ls.kind(line)
		}
		if g == nil {
			ls.addTop(line)
		} else {
			ls.add(g.label, line)
		}
	}
	ls.stderr(r)
	return ls.body(r)
}

// group returns the group of a directory ls names in a heading, which
// comes before its entries.
func (ls *listing) group(label string) *group {
	if g := ls.index[label]; g != nil {
		return g
	}
	g := &group{label: label}
	ls.index[label] = g
	ls.groups = append(ls.groups, g)
	return g
}

// isTotal matches ls -l's first line, "total 48" ("total 4.0K" with -h):
// the blocks its entries take, not an entry.
func isTotal(line string) bool {
	rest, ok := strings.CutPrefix(line, "total ")
	return ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' && !strings.Contains(rest, " ")
}

// isLongLine matches an ls -l line: a type letter and nine permission
// letters, then a space or an ACL's '+' or an SELinux '.'.
func isLongLine(line string) bool {
	if len(line) < 11 || !strings.ContainsRune("-dlbcpsDw?", rune(line[0])) {
		return false
	}
	for i := 1; i < 10; i++ {
		if !strings.ContainsRune("-rwxsStTl", rune(line[i])) {
			return false
		}
	}
	return line[10] == ' ' || line[10] == '+' || line[10] == '.'
}

// lines is the body of a listing the rule does not read entry by entry:
// the count of its lines and the first of them.
func lines(r *summarize.Run) *summarize.Body {
	ls := newListing()
	out := summarize.NewCapped(maxTop)
	for line := range summarize.EachLine(r.Stdout) {
		out.Add(line)
	}
	ls.stderr(r)
	b := &summarize.Body{}
	b.Tally("output_lines", out.Total)
	var tail summarize.Body
	tail.ListCapped("messages", ls.messages)
	room := r.BodyRoom() - len(b.Render()) - len(tail.Render()) - partialRoom(r)
	n, _ := summarize.FitHead("lines", out.Items, out.Total, maxTop, room)
	summarize.AddHead(b, "lines", out.Items, out.Total, n)
	b.Append(&tail)
	return b
}

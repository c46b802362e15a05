package listing

import (
	"strings"
	"sync"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// lsOptions are GNU ls's options (coreutils 9.1) the rule knows. Through a
// pipe ls prints an entry per line; ls -l's lines start with the entry's
// type letter and permissions. The options that put something before
// them (-i, -s, -Z), print several entries on a line (-C, -x, -m,
// --format), color or link the names (--color, --hyperlink) or add lines
// of their own (--dired) pass through.
var lsOptions = sync.OnceValue(func() options {
	return options{}.
		flags("-a", "--all", "-A", "--almost-all", "-B", "--ignore-backups", "-d", "--directory",
			"-f", "-F", "--classify", "-p", "--file-type", "-G", "--no-group", "-h", "--human-readable",
			"--si", "-k", "--kibibytes", "-L", "--dereference", "-H", "--dereference-command-line",
			"--dereference-command-line-symlink-to-dir", "-N", "--literal", "-q", "--hide-control-chars",
			"--show-control-chars", "-Q", "--quote-name", "-b", "--escape", "-r", "--reverse",
			"-S", "-t", "-u", "-c", "-U", "-v", "-X", "--group-directories-first", "--author",
			"-l", "-g", "-o", "-n", "--numeric-uid-gid", "--full-time", "-R", "--recursive", "-1").
		values("--block-size", "--hide", "-I", "--ignore", "--indicator-style", "--quoting-style",
			"--time-style", "--time", "--sort", "-w", "--width", "-T", "--tabsize").
		refuse("puts the inode number before each entry", "-i", "--inode").
		refuse("puts the size in blocks before each entry", "-s", "--size").
		refuse("puts the security context before each entry", "-Z", "--context").
		refuse("prints several entries on a line", "-C", "-x", "-m", "--format").
		refuse("colors the names", "--color", "--colour").
		refuse("adds escapes that link the names", "--hyperlink").
		refuse("adds Emacs dired lines", "-D", "--dired").
		refuse("ends entries with NUL bytes", "--zero").
		refuse("prints no listing", "--help", "--version")
})

// MatchLs recognizes ls [OPTION...] [FILE...] with the options in
// lsOptions.
func MatchLs(argv []string) classify.Answer {
	if !classify.GNUTools {
		return classify.Refuse(0, "ls here is not GNU ls, whose layout the rule reads")
	}
	return walk(argv, 1, lsOptions())
}

// lsLayout is what of ls's options the reading depends on.
type lsLayout struct {
	long, one bool // ls -l's lines; -1
	headings  bool // -R or several operands: a "DIR:" line before each directory's entries
}

func readLsLayout(argv []string) lsLayout {
	var l lsLayout
	operands := 0
	if len(argv) > 0 {
		scan(argv, 1, lsOptions(), func(name string) {
			switch name {
			case "":
				operands++
			case "-l", "-g", "-o", "-n", "--numeric-uid-gid", "--full-time":
				l.long = true
			case "-1":
				l.one = true
			case "-R", "--recursive":
				l.headings = true
			}
		})
	}
	l.headings = l.headings || operands > 1
	return l
}

// Ls summarizes bash.ls: its entries, directory by directory
// (docs/format.md). An entry is shown as ls prints it (ls -l's whole
// line). A directory's entries are the lines after its "DIR:" heading;
// the entries before any heading (a listing of one directory, the file
// operands) are the top level. With headings, when a grep or the capture
// limit may have removed one, no entry is placed; after a tail, the
// entries before the first heading seen are not: they are counted and
// kept unplaced.
func Ls(r *summarize.Run) *summarize.Body {
	l := readLsLayout(r.Argv)
	if r.Terminal && !l.long && !l.one {
		// On a terminal ls prints names in columns, which cannot be told
		// apart from names with spaces.
		return lines(r)
	}
	ls := newListing()
	placeable := !r.Cut.Any && !r.StdoutTruncated
	placed := !r.MayLackStart() // the entries so far have their heading in the output
	dir := ""                   // the heading of the entries that follow
	start, blank := !r.MayLackStart(), false
	for line := range summarize.EachLine(r.Stdout) {
		switch {
		case line == "":
			blank = true
			continue
		case strings.HasPrefix(line, "ls: "):
			ls.messages.Add(line)
			continue
		case l.headings && (start || blank) && strings.HasSuffix(line, ":") && !isLongLine(line):
			dir = strings.TrimSuffix(line, ":")
			placed = placeable
			start, blank = false, false
			continue
		case l.long && isTotal(line):
			start, blank = false, false
			continue
		}
		start, blank = false, false
		switch {
		case l.long && !isLongLine(line):
			ls.unread.Add(line)
		case l.headings && (!placed || !placeable):
			ls.entries++
			ls.unread.Add(line)
		case dir == "":
			ls.addTop(line)
		default:
			ls.add(dir, line)
		}
	}
	ls.stderr(r)
	return ls.body(r)
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
		if !strings.ContainsRune("-rwxsStT?", rune(line[i])) {
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

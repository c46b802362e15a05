package listing

import (
	"strings"
	"sync"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// treeOptions are tree's options (2.1) the rule knows: the ones that
// choose what is listed and in what order. The ones that put file
// information before the names (-p, -s, -D, ...), print another format
// (-J, -X, -H) or no indentation (-i), draw with other characters (-A,
// -S, --charset), color the names (-C), or add notes to a directory's
// line (--filelimit) pass through.
var treeOptions = sync.OnceValue(func() options {
	return options{}.
		flags("-a", "-d", "-l", "-x", "--gitignore", "--ignore-case", "--matchdirs", "--prune",
			"--noreport", "-q", "-N", "-F", "-v", "-t", "-c", "-U", "-r", "--dirsfirst", "--filesfirst",
			"-n").
		values("-L", "-P", "-I", "--gitfile", "--sort").
		refuse("prints each entry's full path", "-f").
		refuse("puts file information before the names", "-p", "-u", "-g", "-s", "-h", "--si", "--du",
			"-D", "--timefmt", "--inodes", "--device", "--metafirst", "--info", "--infofile").
		refuse("prints no indentation", "-i").
		refuse("quotes the names", "-Q").
		refuse("colors the names", "-C").
		refuse("draws with other characters", "-A", "-S", "--charset").
		refuse("adds notes to a directory's line", "--filelimit").
		refuse("prints another format", "-J", "-X", "-H", "-T", "--nolinks", "--hintro", "--houtro").
		refuse("writes a file", "-o").
		refuse("reruns tree past the level", "-R").
		refuse("reads the paths from a file", "--fromfile", "--fflinks").
		refuse("prints no listing", "--help", "--version")
})

// MatchTree recognizes tree [OPTION...] [DIRECTORY...] with the options in
// treeOptions.
func MatchTree(argv []string) classify.Answer {
	return walk(argv, 1, treeOptions())
}

// The drawing tree puts before a name: a unit per level above it, then
// the connector of its own level; in UTF-8 (with no-break spaces) or, in
// a locale that is not UTF-8, in ASCII.
var (
	treeUnits      = []string{"│\u00a0\u00a0 ", "    ", "|   "}
	treeConnectors = []string{"├── ", "└── ", "|-- ", "`-- "}
)

// treeMark is what tree writes after a directory it cannot read.
const treeMark = "  [error opening dir]"

// Tree summarizes bash.tree: its entries, directory by directory, and its
// closing "N directories, M files" line (docs/format.md). A directory's
// name is its path from the listing's root, joined from the names above
// it ("./src/api"). When lines may be missing before the last one (a tail,
// a grep), an entry's directory cannot be told from its indentation: the
// entries are counted and their lines kept, unplaced.
func Tree(r *summarize.Run) *summarize.Body {
	ls := newListing()
	placed := !r.MayLackStart()
	var path []string // the directories above the next entry, by level: path[0] is the root
	for line := range summarize.EachLine(r.Stdout) {
		if line == "" {
			continue
		}
		if isTreeSummary(line) {
			ls.summary = line
			continue
		}
		if strings.HasSuffix(line, treeMark) {
			ls.messages.Add(line)
		}
		level, name, ok := treeEntry(line)
		switch {
		case !ok:
			ls.unread.Add(line)
		case level == 0 && strings.HasPrefix(line, "tree: "):
			ls.messages.Add(line)
		case !placed && level > 0:
			ls.entries++
			ls.unread.Add(line)
		case level == 0:
			path = append(path[:0], dirName(name))
		case level > len(path):
			ls.unread.Add(line)
		default:
			parent := path[level-1]
			ls.add(parent, name)
			path = append(path[:level], parent+"/"+dirName(name))
		}
	}
	ls.stderr(r)
	return ls.body(r)
}

// treeEntry reads a line of tree's drawing: its level (0 for a root,
// which has no drawing) and its name.
func treeEntry(line string) (level int, name string, ok bool) {
	i := 0
units:
	for {
		for _, u := range treeUnits {
			if strings.HasPrefix(line[i:], u) {
				i += len(u)
				level++
				continue units
			}
		}
		break
	}
	for _, c := range treeConnectors {
		if strings.HasPrefix(line[i:], c) {
			return level + 1, line[i+len(c):], true
		}
	}
	if level > 0 {
		return 0, "", false
	}
	return 0, line, true
}

// dirName is the name a directory's entries are listed under: without
// what tree adds to it (-F's '/', a link's " -> target", an error).
func dirName(name string) string {
	name = strings.TrimSuffix(name, treeMark)
	name, _, _ = strings.Cut(name, " -> ")
	if len(name) > 1 {
		name = strings.TrimSuffix(name, "/")
	}
	return name
}

// isTreeSummary matches tree's closing line: "4 directories, 3 files",
// "1 directory, 1 file", "2 directories" (with -d).
func isTreeSummary(line string) bool {
	n := numberPrefix(line)
	if n == 0 {
		return false
	}
	rest := line[n:]
	switch {
	case strings.HasPrefix(rest, " directories"):
		rest = rest[len(" directories"):]
	case strings.HasPrefix(rest, " directory"):
		rest = rest[len(" directory"):]
	default:
		return false
	}
	if rest == "" {
		return true
	}
	rest, ok := strings.CutPrefix(rest, ", ")
	if m := numberPrefix(rest); ok && m > 0 {
		return rest[m:] == " files" || rest[m:] == " file"
	}
	return false
}

func numberPrefix(s string) int {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

package listing

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// treeOptions are tree's options (2.1) the rule knows: the ones that choose
// what is listed, in what order, with which drawing characters. The ones
// that put file information before the names (-p, -s, -D, ...), print
// another format (-J, -X, -H) or no indentation (-i), or write a file (-o),
// pass through.
var treeOptions = options{}.
	flags("-a", "-d", "-l", "-x", "--gitignore", "--ignore-case", "--matchdirs", "--prune",
		"--noreport", "-q", "-N", "-F", "-v", "-t", "-c", "-U", "-r", "--dirsfirst", "--filesfirst",
		"-n", "-C", "-A", "-S").
	values("-L", "-P", "-I", "--gitfile", "--charset", "--filelimit", "--sort").
	spell(opt{kind: flag, name: "full"}, "-f").
	refuse("puts file information before the names", "-p", "-u", "-g", "-s", "-h", "--si", "--du",
		"-D", "--timefmt", "--inodes", "--device", "--metafirst", "--info", "--infofile").
	refuse("prints no indentation", "-i").
	refuse("quotes the names", "-Q").
	refuse("prints another format", "-J", "-X", "-H", "-T", "--nolinks", "--hintro", "--houtro").
	refuse("writes a file", "-o").
	refuse("reruns tree past the level", "-R").
	refuse("reads the paths from a file", "--fromfile", "--fflinks").
	refuse("prints no listing", "--help", "--version")

// MatchTree recognizes tree [OPTION...] [DIRECTORY...] with the options in
// treeOptions.
func MatchTree(argv []string) classify.Answer {
	_, a := walk(argv, 1, treeOptions)
	return a
}

// The drawing tree puts before a name: a unit per level above it, then
// the connector of its own level; in UTF-8 (with no-break spaces) or in
// ASCII (--charset=ascii).
var (
	treeUnits      = []string{"│\u00a0\u00a0 ", "    ", "|   "}
	treeConnectors = []string{"├── ", "└── ", "|-- ", "`-- "}
)

// treeMark is what tree writes after a directory it cannot read.
const treeMark = "[error opening dir]"

// Tree summarizes bash.tree: its entries, directory by directory, and its
// closing "N directories, M files" line (docs/format.md). A directory's
// name is its path from the listing's root, joined from the names above
// it ("./src/api"; with -f, the path tree prints).
func Tree(r *summarize.Run) *summarize.Body {
	full := false
	if len(r.Argv) > 0 {
		p, _ := walk(r.Argv, 1, treeOptions)
		full = p.has("full")
	}
	ls := newListing()
	var path []string // the directories above the next entry, by level: path[0] is the root
	for line := range summarize.EachLine(r.Stdout) {
		if line == "" {
			continue
		}
		if isTreeSummary(line) {
			ls.summary = line
			continue
		}
		level, name, ok := treeEntry(line)
		if strings.Contains(line, treeMark) {
			ls.messages.Add(line)
		}
		switch {
		case !ok:
			ls.unread.Add(line)
		case level == 0 && strings.HasPrefix(line, "tree: "):
			ls.messages.Add(line)
		case level == 0:
			path = append(path[:0], dirName(name))
		case level > len(path):
			// Its directory's line was cut away (a tail).
			ls.unread.Add(line)
		default:
			parent := path[level-1]
			ls.add(parent, name)
			label := dirName(name)
			if !full {
				label = parent + "/" + label
			}
			path = append(path[:level], label)
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
	name, _, _ = strings.Cut(name, "  "+treeMark)
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
	rest := line[n:]
	if n == 0 {
		return false
	}
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

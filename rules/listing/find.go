package listing

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// find's expression is read word by word: the tests and options that only
// choose which files are printed, with the number of arguments each takes,
// are accepted; the actions that print something else than the path
// (-printf, -ls, -print0), write files (-fprint, -delete) or run commands
// (-exec, -ok) pass through, and so does any word the table does not know.

// findArgs are find's tests, options and operators that -print's output
// does not depend on, with the number of words that follow each.
var findArgs = map[string]int{
	"-name": 1, "-iname": 1, "-path": 1, "-ipath": 1, "-wholename": 1, "-iwholename": 1,
	"-regex": 1, "-iregex": 1, "-regextype": 1, "-lname": 1, "-ilname": 1,
	"-type": 1, "-xtype": 1, "-size": 1, "-perm": 1, "-user": 1, "-group": 1,
	"-uid": 1, "-gid": 1, "-links": 1, "-inum": 1, "-samefile": 1, "-fstype": 1,
	"-mtime": 1, "-mmin": 1, "-atime": 1, "-amin": 1, "-ctime": 1, "-cmin": 1,
	"-used": 1, "-newer": 1, "-anewer": 1, "-cnewer": 1,
	"-maxdepth": 1, "-mindepth": 1,
	"-empty": 0, "-readable": 0, "-writable": 0, "-executable": 0,
	"-nouser": 0, "-nogroup": 0, "-true": 0, "-false": 0,
	"-depth": 0, "-d": 0, "-prune": 0, "-quit": 0, "-print": 0,
	"-xdev": 0, "-mount": 0, "-follow": 0, "-daystart": 0, "-noleaf": 0,
	"-ignore_readdir_race": 0, "-noignore_readdir_race": 0, "-warn": 0, "-nowarn": 0,
	"-not": 0, "!": 0, "-a": 0, "-and": 0, "-o": 0, "-or": 0, "(": 0, ")": 0, ",": 0,
}

// findActions pass through, with the reason.
var findActions = map[string]string{
	"-printf": "prints its own format", "-fprintf": "writes a file", "-print0": "ends paths with NUL bytes",
	"-fprint": "writes a file", "-fprint0": "writes a file", "-ls": "prints ls -dils lines", "-fls": "writes a file",
	"-exec": "runs a command", "-execdir": "runs a command", "-ok": "runs a command", "-okdir": "runs a command",
	"-delete": "deletes files", "-help": "prints help", "--help": "prints help", "-version": "prints the version",
	"--version": "prints the version",
}

// MatchFind recognizes find [-H|-L|-P] [PATH...] [EXPRESSION] whose
// expression only chooses what it prints, by -print (the default).
func MatchFind(argv []string) classify.Answer {
	if !classify.GNUTools {
		return classify.Refuse(0, "find here is not GNU find, whose messages the rule reads")
	}
	i := 1
	for i < len(argv) && (argv[i] == "-H" || argv[i] == "-L" || argv[i] == "-P") {
		i++
	}
	for i < len(argv) && !isFindExpr(argv[i]) {
		i++ // a start point
	}
	for ; i < len(argv); i++ {
		a := argv[i]
		if why, ok := findActions[a]; ok {
			return classify.Refuse(i, "find %s %s", a, why)
		}
		n, ok := findArgs[a]
		if !ok && strings.HasPrefix(a, "-newer") && len(a) == len("-newerXY") {
			n, ok = 1, true
		}
		if !ok {
			return classify.Refuse(i, "find %q is not one the rule reads", a)
		}
		if i+n >= len(argv) && n > 0 {
			return classify.Refuse(i, "find %s without its argument", a)
		}
		i += n
	}
	return classify.Accept()
}

// isFindExpr reports whether a word starts find's expression: an option,
// a test or an operator, as find tells the start points from it.
func isFindExpr(w string) bool {
	return strings.HasPrefix(w, "-") && w != "-" || w == "!" || w == "(" || w == ")" || w == ","
}

// Find summarizes bash.find: its paths, directory by directory
// (docs/format.md).
func Find(r *summarize.Run) *summarize.Body {
	ls := readPaths(r, func(l string) bool { return strings.HasPrefix(l, "find: ") })
	ls.paths = true
	return ls.body(r)
}

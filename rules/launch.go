package rules

import (
	"path"
	"strings"
)

// A launcher only finds a tool and starts it: pnpm exec, yarn, bunx, uv
// run, poetry run, pipx run, or a path to the tool in the directories that
// package managers and the system install tools into. Behind one, the tool
// is matched as if it were run by name, and its rule reads the tool's own
// argv (classify.Result.Tool); the header's command stays what was written.
// A launcher with any option of its own passes through: options such as uv
// run --with or pnpm exec --filter change what runs or what is printed.

// launchers maps a launcher's first word to the words that must follow it
// before the tool's name.
var launchers = map[string][]string{
	"pnpm":   {"exec"},
	"yarn":   nil,
	"bunx":   nil,
	"uv":     {"run"},
	"poetry": {"run"},
	"pipx":   {"run"},
}

// toolDirs are the directories a tool may be named in by path: the system's
// and the per-project ones (node_modules/.bin, a virtualenv's bin).
var toolDirs = []string{"/usr/bin", "/bin", "/usr/local/bin", "/usr/local/go/bin"}

// versioned are the tools Debian and others install under versioned names
// as well (gcc-12, clang++-15, clang-tidy-14), each the same program with
// the same output: such a name is matched as the tool's.
var versioned = map[string]bool{"gcc": true, "g++": true, "clang": true, "clang++": true, "clang-tidy": true}

// unversioned returns the tool a versioned name names ("gcc" for
// "gcc-12", "clang" for "clang-14.0"), or name itself.
func unversioned(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i <= 0 || !versioned[name[:i]] {
		return name
	}
	for _, n := range strings.Split(name[i+1:], ".") {
		if n == "" || strings.Trim(n, "0123456789") != "" {
			return name
		}
	}
	return name[:i]
}

// launched returns how many words of argv only launch the tool that
// follows them (0 when argv is not a launcher followed by a tool's name),
// and the tool's argv with its name as a bare word, unversioned. A tool
// named by a path outside the tool directories keeps its path, which no
// rule routes on.
func launched(argv []string) (skip int, tool []string) {
	if strings.Contains(argv[0], "/") {
		if !toolPath(argv[0]) {
			return 0, argv
		}
		return 0, append([]string{unversioned(path.Base(argv[0]))}, argv[1:]...)
	}
	if name := unversioned(argv[0]); name != argv[0] {
		return 0, append([]string{name}, argv[1:]...)
	}
	then, ok := launchers[argv[0]]
	if !ok {
		return 0, argv
	}
	i := 1
	for _, w := range then {
		if i == len(argv) || argv[i] != w {
			return 0, argv
		}
		i++
	}
	if i == len(argv) || strings.HasPrefix(argv[i], "-") || strings.Contains(argv[i], "/") {
		return 0, argv
	}
	return i, argv[i:]
}

// toolPath reports whether p names a tool in one of toolDirs, in a
// node_modules/.bin or in a virtualenv's bin (.venv/bin, venv/bin).
func toolPath(p string) bool {
	dir := path.Dir(path.Clean(p))
	for _, d := range toolDirs {
		if dir == d {
			return true
		}
	}
	for _, suffix := range []string{"node_modules/.bin", ".venv/bin", "venv/bin"} {
		if dir == suffix || strings.HasSuffix(dir, "/"+suffix) {
			return true
		}
	}
	return false
}

package shape

import "bytes"

// definition reports whether a line of source code begins a definition
// the outline lists (a class, function, method, type), and how deeply it
// is indented. It reads one line at a time, by its first words, as a
// reader skimming the file would: no parser, so a definition written
// over several lines is found by its first, and a line in a string that
// looks like one is listed too. outline_test.go holds it to each
// language's own parser (Python's ast, go/parser) or to ctags.
func definition(l lang, code []byte) (depth int, ok bool) {
	t := trimBlank(code)
	if len(t) == 0 {
		return 0, false
	}
	col := 0
	for _, c := range code[:len(code)-len(t)] {
		if c == '\t' {
			col += 4
		} else {
			col++
		}
	}
	unit := 4
	if l == langJS {
		unit = 2
	}
	depth = col / unit
	switch l {
	case langPython:
		t = cutWord(t, "async")
		return depth, startsDecl(t, "def", "class")
	case langGo:
		if col == 0 {
			return 0, startsDecl(t, "func", "type") || bytes.HasPrefix(t, []byte("func ("))
		}
		// A type in a type ( ... ) block: "\tName struct {".
		name := identPrefix(t)
		rest := bytes.TrimLeft(t[len(name):], " ")
		return 1, code[0] == '\t' && col == 4 && len(name) > 0 && (bytes.HasPrefix(rest, []byte("struct {")) || bytes.HasPrefix(rest, []byte("interface {")) ||
			bytes.HasPrefix(rest, []byte("struct{")) || bytes.HasPrefix(rest, []byte("interface{")))
	case langJS:
		return depth, jsDefinition(t, col > 0)
	case langRust:
		t = cutModifiers(t, "pub", "async", "unsafe", "default", "extern")
		if bytes.HasPrefix(t, []byte("const fn ")) {
			t = t[len("const "):]
		}
		if bytes.HasPrefix(t, []byte("impl<")) || bytes.HasPrefix(t, []byte("impl ")) || bytes.HasPrefix(t, []byte("macro_rules!")) {
			return depth, true
		}
		if startsDecl(t, "mod") && bytes.HasSuffix(bytes.TrimRight(t, " "), []byte(";")) {
			return depth, false
		}
		return depth, startsDecl(t, "fn", "struct", "enum", "trait", "mod", "union", "type")
	case langC:
		if col > 0 {
			return depth, false
		}
		return 0, cDefinition(t)
	case langJava:
		t = cutModifiers(t, "public", "private", "protected", "static", "final", "abstract", "sealed", "synchronized", "native", "default", "open", "override", "internal", "data")
		if startsDecl(t, "class", "interface", "enum", "record", "object", "fun") || bytes.HasPrefix(t, []byte("@interface ")) {
			return depth, true
		}
		return depth, col > 0 && javaMethod(t)
	}
	return 0, false
}

// startsDecl reports whether t starts with one of the keywords, a space and
// a name.
func startsDecl(t []byte, keywords ...string) bool {
	for _, kw := range keywords {
		if rest, ok := bytes.CutPrefix(t, []byte(kw)); ok && len(rest) > 1 && rest[0] == ' ' {
			if name := bytes.TrimLeft(rest, " "); len(name) > 0 && isIdent(name[0], true) {
				return true
			}
		}
	}
	return false
}

// cutWord removes a leading word and the spaces after it.
func cutWord(t []byte, w string) []byte {
	if rest, ok := bytes.CutPrefix(t, []byte(w)); ok && len(rest) > 0 && rest[0] == ' ' {
		return bytes.TrimLeft(rest, " ")
	}
	return t
}

// cutModifiers removes leading modifiers: "pub(crate) async fn" is "fn".
// A modifier with a parenthesis ("pub(crate)") or a quoted ABI
// (`extern "C"`) is removed whole.
func cutModifiers(t []byte, mods ...string) []byte {
	for {
		before := len(t)
		for _, m := range mods {
			rest, ok := bytes.CutPrefix(t, []byte(m))
			if !ok || len(rest) == 0 {
				continue
			}
			switch rest[0] {
			case ' ':
				rest = bytes.TrimLeft(rest, " ")
				if len(rest) > 0 && rest[0] == '"' {
					if i := bytes.IndexByte(rest[1:], '"'); i >= 0 {
						rest = bytes.TrimLeft(rest[i+2:], " ")
					}
				}
				t = rest
			case '(':
				if i := bytes.IndexByte(rest, ')'); i >= 0 && i+1 < len(rest) && rest[i+1] == ' ' {
					t = bytes.TrimLeft(rest[i+1:], " ")
				}
			}
		}
		if len(t) == before {
			return t
		}
	}
}

// identPrefix returns the name t starts with.
func identPrefix(t []byte) []byte {
	i := 0
	for i < len(t) && isIdent(t[i], i == 0) {
		i++
	}
	return t[:i]
}

// notNames are the keywords that look like a call or a method's name.
var notNames = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "return": true, "function": true, "new": true,
	"await": true, "typeof": true, "else": true, "do": true, "try": true, "with": true, "super": true, "this": true,
	"sizeof": true, "case": true, "synchronized": true, "throw": true, "yield": true, "import": true, "require": true,
	"foreach": true, "elif": true, "when": true, "assert": true, "delete": true,
}

// jsDefinition: functions, classes, interfaces, enums, type aliases,
// namespaces, functions bound to a name, and methods (indented "name(...)
// {").
func jsDefinition(t []byte, indented bool) bool {
	t = cutModifiers(t, "export", "default", "declare", "abstract", "async", "public", "private", "protected", "static", "readonly", "override")
	if rest, ok := bytes.CutPrefix(t, []byte("function")); ok && len(rest) > 0 && (rest[0] == ' ' || rest[0] == '*' || rest[0] == '(') {
		return true
	}
	if startsDecl(t, "class", "interface", "enum", "namespace", "module") {
		return true
	}
	if startsDecl(t, "type") {
		return bytes.IndexByte(t, '=') > 0
	}
	for _, kw := range []string{"const", "let", "var"} {
		if rest, ok := bytes.CutPrefix(t, []byte(kw+" ")); ok {
			name := identPrefix(bytes.TrimLeft(rest, " "))
			if len(name) == 0 {
				return false
			}
			_, value, ok := bytes.Cut(rest, []byte("="))
			value = bytes.TrimLeft(value, " ")
			return ok && len(value) > 0 && value[0] != '=' && value[0] != '>' &&
				(bytes.Contains(value, []byte("=>")) || bytes.HasPrefix(cutWord(value, "async"), []byte("function")))
		}
	}
	if !indented {
		return false
	}
	// A method: name(...) { with perhaps get/set/*/# before the name.
	m := t
	for _, w := range []string{"get", "set"} {
		if rest := cutWord(m, w); len(rest) < len(m) && len(identPrefix(rest)) > 0 {
			m = rest
		}
	}
	m = bytes.TrimLeft(m, "*#")
	name := identPrefix(m)
	if len(name) == 0 || notNames[string(name)] {
		return false
	}
	rest := bytes.TrimLeft(m[len(name):], " ")
	if len(rest) > 0 && rest[0] == '<' {
		if i := bytes.IndexByte(rest, '>'); i > 0 {
			rest = rest[i+1:]
		}
	}
	end := bytes.TrimRight(t, " ")
	return len(rest) > 0 && rest[0] == '(' && bytes.HasSuffix(end, []byte("{")) && !bytes.Contains(end, []byte("=>"))
}

// cDefinition: a function's definition (a name and its parameters at the
// line's start, not a declaration ending in ";"), or a struct, union,
// enum, class or namespace.
func cDefinition(t []byte) bool {
	switch t[0] {
	case '#', '/', '*', '{', '}', '(', ')':
		return false
	}
	end := bytes.TrimRight(t, " \t")
	s := cutModifiers(t, "typedef", "static", "extern", "inline", "template")
	if startsDecl(s, "struct", "union", "enum", "class", "namespace") {
		// Not a declaration ("struct pair;") or a variable ("struct pair p;").
		return bytes.IndexByte(t, '{') >= 0 || !bytes.HasSuffix(end, []byte(";"))
	}
	if bytes.HasSuffix(end, []byte(";")) {
		return false
	}
	open := bytes.IndexByte(t, '(')
	if open <= 0 || bytes.IndexByte(t[:open], '=') >= 0 {
		return false
	}
	before := bytes.TrimRight(t[:open], " ")
	i := len(before)
	for i > 0 && (isIdent(before[i-1], false) || before[i-1] == ':' || before[i-1] == '~') {
		i--
	}
	name := before[i:]
	first := identPrefix(t)
	return len(name) > 0 && isIdent(name[0], true) && !notNames[string(name)] && !notNames[string(first)]
}

// javaMethod: an indented "Type name(...) {" or a constructor.
func javaMethod(t []byte) bool {
	open := bytes.IndexByte(t, '(')
	end := bytes.TrimRight(t, " ")
	if open <= 0 || bytes.IndexByte(t[:open], '=') >= 0 || !(bytes.HasSuffix(end, []byte("{")) || bytes.HasSuffix(end, []byte(")"))) {
		return false
	}
	words := bytes.Fields(t[:open])
	if len(words) == 0 || len(words) > 4 {
		return false
	}
	name := words[len(words)-1]
	return len(identPrefix(name)) == len(name) && !notNames[string(name)] && !notNames[string(words[0])] &&
		(len(words) >= 2 || name[0] >= 'A' && name[0] <= 'Z')
}

package deny

import "strings"

// unwrap returns the command a wrapper runs, when words start with one
// whose options it can read (timeout 5 git push runs git push), or nil.
// A word it needs that is not static ends the reading.
func unwrap(words []pattern) []pattern {
	w := make([]string, 0, len(words))
	for _, p := range words {
		s, ok := p.static()
		if !ok {
			break
		}
		w = append(w, s)
	}
	if len(w) == 0 {
		return nil
	}
	i := 0
	switch base(w[0]) {
	case "timeout":
		i = skipOptions(w, 1, "ks", "kill-after signal")
		if i < 0 || i >= len(w) || !isDuration(w[i]) {
			return nil
		}
		i++
	case "time":
		i = skipOptions(w, 1, "", "")
	case "nice":
		i = skipOptions(w, 1, "n", "adjustment")
	case "nohup", "builtin", "noglob", "nocorrect":
		i = skipOptions(w, 1, "", "")
	case "stdbuf":
		i = skipOptions(w, 1, "ioe", "input output error")
	case "command":
		if len(w) > 1 && (w[1] == "-v" || w[1] == "-V") {
			return nil // a lookup: it runs nothing
		}
		i = skipOptions(w, 1, "", "")
	case "env":
		i = skipOptions(w, 1, "uCS", "unset chdir split-string")
		for i > 0 && i < len(w) && isAssignment(w[i]) {
			i++
		}
	case "sudo", "doas":
		i = skipOptions(w, 1, "ugCDhprTUt", "user group close-from chdir host prompt role command-timeout other-user type")
		for i > 0 && i < len(w) && isAssignment(w[i]) {
			i++
		}
	case "xargs":
		i = skipOptions(w, 1, "adEeIiLlnPs", "arg-file delimiter eof replace max-lines max-args max-procs max-chars process-slot-var")
	default:
		return nil
	}
	if i <= 0 || i >= len(words) {
		return nil
	}
	return words[i:]
}

// skipOptions returns the index of the first word after a command's
// options, from start: short options (clustered or not) of which those in
// withArg take the next word when nothing follows them, long options of
// which those in longArg (space-separated) take the next word unless
// written --opt=value, and a -- that ends them. -1 when an option's value
// is missing.
func skipOptions(w []string, start int, withArg, longArg string) int {
	long := strings.Fields(longArg)
	i := start
	for i < len(w) {
		a := w[i]
		switch {
		case a == "--":
			return i + 1
		case strings.HasPrefix(a, "--"):
			name, _, hasValue := strings.Cut(a[2:], "=")
			i++
			if !hasValue && contains(long, name) {
				i++
			}
		case len(a) > 1 && a[0] == '-':
			i++
			for j := 1; j < len(a); j++ {
				if strings.IndexByte(withArg, a[j]) >= 0 {
					if j == len(a)-1 {
						i++
					}
					break
				}
			}
		default:
			return i
		}
	}
	if i > len(w) {
		return -1
	}
	return i
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func base(p string) string {
	return p[strings.LastIndexByte(p, '/')+1:]
}

func isAssignment(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isDuration is timeout's DURATION: a number, with a fraction and a unit
// (s, m, h, d) allowed.
func isDuration(s string) bool {
	s = strings.TrimRight(s, "smhd")
	whole, frac, _ := strings.Cut(s, ".")
	return isNumber(whole) && (frac == "" || isNumber(frac))
}

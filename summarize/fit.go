package summarize

// Rules keep their block within the budget (Run.BodyRoom): counts, names
// and statuses always go in, and the lists whose items can be long
// (diagnostics, failure contexts, test results) take the items that fit,
// in order, with the count of the rest. These helpers measure a list the
// way Body renders it.

// FitList returns how many leading items, at most limit, fit in room bytes
// together with the list's "key:" line and, when items are left out, its
// omitted line; and the size they take.
func FitList(key string, items []string, limit, room int) (n, size int) {
	return FitHead(key, items[:min(limit, len(items))], len(items), limit, room)
}

// FitHead is FitList for a list of total items of which only the first
// ones, head, were kept (at least limit of them when there are as many):
// a rule that shows at most limit items of a list counts the others
// instead of building them.
func FitHead(key string, head []string, total, limit, room int) (n, size int) {
	limit = min(limit, total)
	size = len(key) + 2 // "key:\n"
	for n < limit {
		next := size + ItemSize(head[n])
		if rest := total - n - 1; rest > 0 {
			next += OmittedSize(key, rest)
		}
		if next > room {
			break
		}
		size += ItemSize(head[n])
		n++
	}
	if n == 0 {
		size = 0
	}
	if rest := total - n; rest > 0 {
		size += OmittedSize(key, rest)
	}
	return n, size
}

// AddList adds the first n items as a list, or only the count when none
// fit, so that a list the budget crowds out still says how long it was.
func AddList(b *Body, key string, items []string, n int) {
	AddHead(b, key, items[:n], len(items), n)
}

// AddHead is AddList for a list kept as its head and its total: the first
// n items and the count of the rest.
func AddHead(b *Body, key string, head []string, total, n int) {
	if n == 0 {
		if total > 0 {
			b.Count(key+"_omitted", total)
		}
		return
	}
	b.ListHead(key, head[:n], total)
}

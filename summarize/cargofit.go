package summarize

// The cargo rules keep their block within r.budget(): counts, names and
// statuses always go in, and the lists whose items can be long
// (diagnostics, failure contexts, test results) take the items that fit,
// in order, with the count of the rest. These helpers measure a list the
// way Body renders it.

// fitList returns how many leading items, at most limit, fit in room bytes
// together with the list's "key:" line and, when items are left out, its
// omitted line; and the size they take.
func fitList(key string, items []string, limit, room int) (n, size int) {
	limit = min(limit, len(items))
	size = len(key) + 2 // "key:\n"
	for n < limit {
		next := size + itemSize(items[n])
		if rest := len(items) - n - 1; rest > 0 {
			next += omittedSize(key, rest)
		}
		if next > room {
			break
		}
		size += itemSize(items[n])
		n++
	}
	if n == 0 {
		size = 0
	}
	if rest := len(items) - n; rest > 0 {
		size += omittedSize(key, rest)
	}
	return n, size
}

// addList appends the first n items of a list and the count of the rest.
// When none fits, the count alone still says the list exists and how long
// it is.
func addList(b *Body, key string, items []string, n int) {
	if n == 0 {
		if len(items) > 0 {
			b.Count(key+"_omitted", len(items))
		}
		return
	}
	b.List(key, items, n)
}

package summarize

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Body is a rule's output: an ordered list of fields. A field is either a
// scalar ("key: value") or a list ("key:" then "- item" lines). Rules build a
// Body; they never write text directly, so that caps, their counts and
// sanitizing happen in one place.
type Body struct {
	fields []field
}

type field struct {
	key     string
	value   string   // scalar value; unused for lists
	items   []string // list items; an item may hold continuation lines after '\n'
	list    bool
	omitted int  // items left out by the cap
	tally   bool // a count of lines seen (Tally), not a total the tool printed
}

// Field appends a scalar field. The value is copied from the raw output or
// computed from it; it is rendered on one line.
func (b *Body) Field(key, value string) {
	b.fields = append(b.fields, field{key: key, value: value})
}

// Count appends an integer field: a total the tool printed (copied from
// its own line, or summed over its result lines), or a count of lines of an
// output known to be whole. A count of lines that a cut could have removed
// is a Tally.
func (b *Body) Count(key string, n int) {
	b.Field(key, strconv.Itoa(n))
}

// Tally appends a count shrinkrun made by counting lines of the output:
// files in a diff, commits, status entries, diagnostics. On a whole output
// it is "KEY: N" like Count. When the output was cut (Run.Partial), the
// lines it counts may be the ones the cut removed: Block shows it as
// "KEY_seen: N", and leaves it out when it is 0 (docs/format.md, "A count
// is a statement").
func (b *Body) Tally(key string, n int) {
	b.fields = append(b.fields, field{key: key, value: strconv.Itoa(n), tally: true})
}

// seen turns the body's tallies into counts of what was seen, for a cut
// output: KEY_seen, and no zero.
func (b *Body) seen() {
	kept := b.fields[:0]
	for _, f := range b.fields {
		if f.tally {
			if f.value == "0" {
				continue
			}
			f.key += "_seen"
		}
		kept = append(kept, f)
	}
	b.fields = kept
}

// prepend puts o's fields before b's.
func (b *Body) prepend(o *Body) {
	b.fields = append(o.fields, b.fields...)
}

// List appends a list of at most max items (max <= 0 means no cap). When
// the cap bites, the list is followed by "KEY_omitted: N" with the exact
// number of items left out. An empty list appends nothing. An item may span
// several lines separated by '\n'; continuation lines are indented by two
// spaces under the item.
func (b *Body) List(key string, items []string, max int) {
	if len(items) == 0 {
		return
	}
	f := field{key: key, list: true, items: items}
	if max > 0 && len(items) > max {
		f.items = items[:max]
		f.omitted = len(items) - max
	}
	b.fields = append(b.fields, f)
}

// Append appends the fields of o, in order: a rule that shows another's
// body after its own fields (git show's patch is git diff's).
func (b *Body) Append(o *Body) {
	b.fields = append(b.fields, o.fields...)
}

// Capped collects the first max items of a list and counts all of them,
// for a rule that reads a stream once and shows only the head of a list:
// on a large output it holds max items instead of every line.
type Capped struct {
	Items []string // the first Max items
	Total int      // every item
	Max   int
}

// NewCapped returns a Capped that keeps the first max items.
func NewCapped(max int) Capped { return Capped{Max: max} }

// Add counts item, and keeps it while fewer than Max are kept.
func (c *Capped) Add(item string) {
	if len(c.Items) < c.Max {
		c.Items = append(c.Items, item)
	}
	c.Total++
}

// ListCapped appends c as List(key, all, c.Max) would have appended the
// whole list.
func (b *Body) ListCapped(key string, c Capped) {
	b.ListHead(key, c.Items, c.Total)
}

// ListHead appends a list of total items of which only the first ones,
// head, are shown: the rest are counted in its _omitted line.
func (b *Body) ListHead(key string, head []string, total int) {
	if total == 0 {
		return
	}
	b.fields = append(b.fields, field{key: key, list: true, items: head, omitted: total - len(head)})
}

// fit drops list items, last first and from the largest list first, until
// the rendered body is at most max bytes; every drop is counted in the
// list's _omitted line, whose own size is accounted for. Scalars are never
// dropped: they are short counts and copied status lines. Only whole items
// go, so no line and no UTF-8 character is ever cut. Sizes are kept per
// list and updated per drop, so fit is linear in the number of items.
func (b *Body) fit(max int) {
	size := len(b.Render())
	if size <= max {
		return
	}
	items := make([]int, len(b.fields)) // rendered bytes of each list's items
	for i, f := range b.fields {
		for _, it := range f.items {
			items[i] += ItemSize(it)
		}
	}
	for size > max {
		best := -1
		for i, f := range b.fields {
			if len(f.items) > 0 && (best < 0 || items[i] > items[best]) {
				best = i
			}
		}
		if best < 0 {
			return
		}
		f := &b.fields[best]
		before := listSize(f.key, items[best], len(f.items), f.omitted)
		items[best] -= ItemSize(f.items[len(f.items)-1])
		f.items = f.items[:len(f.items)-1]
		f.omitted++
		size += listSize(f.key, items[best], len(f.items), f.omitted) - before
	}
}

// ItemSize is the rendered size of one list item: "- " or "  " before each
// of its lines and a newline after.
func ItemSize(it string) int {
	n := 0
	for l := range strings.SplitSeq(it, "\n") {
		n += 3 + len(Clean(l))
	}
	return n
}

// OmittedSize is the size of the "KEY_omitted: N" line.
func OmittedSize(key string, n int) int {
	return len(key) + len("_omitted: ") + len(strconv.Itoa(n)) + 1
}

// listSize is the rendered size of a list field whose n items take
// itemBytes: its "key:" line when it has items, the items, and its omitted
// line when it left some out.
func listSize(key string, itemBytes, n, omitted int) int {
	size := itemBytes
	if n > 0 {
		size += len(key) + 2
	}
	if omitted > 0 {
		size += OmittedSize(key, omitted)
	}
	return size
}

// Render returns the body as the block shows it: each field on its own
// line, "key: value", or "key:" and its "- item" lines, with the
// _omitted count of a capped list after it.
func (b *Body) Render() []byte {
	var sb strings.Builder
	for _, f := range b.fields {
		if !f.list {
			sb.WriteString(f.key)
			sb.WriteString(": ")
			sb.WriteString(oneLine(f.value))
			sb.WriteByte('\n')
			continue
		}
		if len(f.items) > 0 {
			sb.WriteString(f.key)
			sb.WriteString(":\n")
		}
		for _, it := range f.items {
			for i, l := range strings.Split(it, "\n") {
				if i == 0 {
					sb.WriteString("- ")
				} else {
					sb.WriteString("  ")
				}
				sb.WriteString(Clean(l))
				sb.WriteByte('\n')
			}
		}
		if f.omitted > 0 {
			sb.WriteString(f.key)
			sb.WriteString("_omitted: ")
			sb.WriteString(strconv.Itoa(f.omitted))
			sb.WriteByte('\n')
		}
	}
	return []byte(sb.String())
}

// oneLine makes s safe as a single header or field value: newlines would
// let copied text forge fields, so they are shown as spaces.
func oneLine(s string) string {
	s = Clean(s)
	if strings.ContainsAny(s, "\n\r") {
		s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	}
	return s
}

// Clean keeps the block valid UTF-8 and free of a trailing carriage return.
func Clean(s string) string {
	s = strings.TrimSuffix(s, "\r")
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}

package shape

// kept is how many bytes of output the Cutter holds.
func (c *Cutter) kept() int {
	n := len(c.part[0]) + len(c.part[1])
	for _, h := range c.held {
		n += len(h.data)
	}
	if k := c.cut; k != nil {
		n += k.l.size + cap(k.cur[0].keep) + cap(k.cur[1].keep) + 8*cap(k.l.tail) + k.tail.bytes + 96*cap(k.tail.lines)
		for _, st := range k.l.byRank {
			n += 8 * cap(st)
		}
	}
	return n
}

// minBudget is the smallest budget that holds the closing marker and one
// gap marker, below which a cut says what fits.
func minBudget() int { return trailerRoom() + maxGapMarker + 2 }

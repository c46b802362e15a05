package summarize

// A LineReader is a rule's parser of output, which it reads one line at a
// time: Feed takes the next line of a stream, and EndStream closes what the
// stream left open, since nothing one stream prints continues on the other
// (a section of stdout never goes on in stderr).
type LineReader interface {
	Feed(l string)
	EndStream()
}

// ReadStreams feeds rd every line of each stream in turn, in the order
// given (a rule reads first the stream its tool writes its report to),
// ending each.
func ReadStreams(rd LineReader, streams ...[]byte) {
	for _, s := range streams {
		for l := range EachLine(s) {
			rd.Feed(l)
		}
		rd.EndStream()
	}
}

// ReadLines is ReadStreams for streams already read as lines: r.Lines of
// them, or a reading of them such as go's text of test2json events.
func ReadLines(rd LineReader, streams ...[]string) {
	for _, ls := range streams {
		for _, l := range ls {
			rd.Feed(l)
		}
		rd.EndStream()
	}
}

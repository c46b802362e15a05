package summarize

// EstimateTokens approximates how many tokens a BPE tokenizer (o200k) makes
// of b, in one pass and no tables, for decisions on the hot path: a block is
// worth printing only if it is clearly smaller in what the agent pays for,
// tokens, not only in bytes. Letters count one token per six, digits one
// per three (the tokenizer splits numbers in threes), a space before a word
// joins what follows it, other runs of white space count one, and runs of other
// bytes (punctuation, non-ASCII text) one per two. On the corpus it lands
// within a few percent of the real count in total (TestEstimateTokens).
func EstimateTokens(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		c := b[i]
		j := i + 1
		switch {
		case isLetter(c):
			for j < len(b) && isLetter(b[j]) {
				j++
			}
			n += (j - i + 7) / 8
		case '0' <= c && c <= '9':
			for j < len(b) && '0' <= b[j] && b[j] <= '9' {
				j++
			}
			n += (j - i + 2) / 3
		case c == ' ' && j < len(b) && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r':
			// " word", " 217", " (": one space joins what follows it.
		case (c == '/' || c == '.') && j < len(b) && isLetter(b[j]) && (i == 0 || b[i-1] != c):
			// "/core", ".go": a path's separator joins the word after it.
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\n' || b[j] == '\r') {
				j++
			}
			n++
		default:
			// Punctuation and non-ASCII bytes: the tokenizer merges short
			// mixed runs of punctuation ("::", "->") about two bytes a
			// token, UTF-8 characters (tree's "│\u00a0\u00a0", "├──") about
			// three, and long runs of one byte ("+++++", "=====") eight.
			mixed, wide := 0, 0
			for j = i; j < len(b) && isOther(b[j]); {
				k := j + 1
				for k < len(b) && b[k] == b[j] {
					k++
				}
				switch {
				case k-j >= 3:
					n += (k - j + 7) / 8
				case b[j] >= 0x80:
					wide += k - j
				default:
					mixed += k - j
				}
				j = k
			}
			n += (mixed+1)/2 + (wide+2)/3
		}
		i = j
	}
	return n
}

func isOther(c byte) bool {
	return !isLetter(c) && !('0' <= c && c <= '9') && c != ' ' && c != '\t' && c != '\n' && c != '\r'
}

func isLetter(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

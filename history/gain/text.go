package gain

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// chartWidth is the longest bar of the daily chart, in characters.
const chartWidth = 32

// WriteText prints the report for a terminal. Figures that include an
// estimate are marked with ~.
func (rep Report) WriteText(w io.Writer) error {
	p := &printer{w: w}
	t := rep.Totals
	scope := "all directories"
	if rep.Project != "" {
		scope = rep.Project
	}
	since := "whole history"
	if rep.Since != nil {
		since = "since " + rep.Since.In(rep.Now.Location()).Format("2006-01-02 15:04")
	}
	p.f("shrinkrun gain: %s, %s, %s\n", runs(t.Runs), since, scope)
	if t.Runs == 0 {
		p.f("\nNo runs recorded here yet.\n")
		return p.err
	}
	est := t.RawEstimated+t.ShownEstimated > 0
	rows := [][]string{
		{"summarized", runs(t.BlockRuns), "printed a block"},
		{"printed raw", runs(t.RawRuns), "captured, then printed whole: a block would not have been clearly smaller"},
		{"passed through", runs(t.PassthroughRuns), "no rule: the output as the command wrote it, cut only past the client's limit"},
	}
	if t.CutRuns > 0 {
		rows = append(rows, []string{"cut by shape", runs(t.CutRuns), fmt.Sprintf("passed through, past the limit: raw %s bytes   shown %s bytes   saved %s",
			num(t.CutRawBytes), num(t.CutShownBytes), pctText(savedPct(t.CutRawBytes, t.CutShownBytes)))})
	}
	rows = append(rows, []string{"captured", runs(t.CuratedRuns), fmt.Sprintf("raw %s tokens   shown %s tokens   saved %s tokens (%s)",
		tok(t.RawTokens, t.RawEstimated > 0), tok(t.ShownTokens, t.ShownEstimated > 0), tok(t.SavedTokens, est), pctText(t.SavedPct))})
	p.table(rows, 1)
	if t.CuratedRuns > 0 {
		p.f("\nTokens are %s. Raw output: counted for %s, estimated for %d. Shown: counted for %d, estimated for %d.\n",
			rep.Encoding, runs(t.RawCounted), t.RawEstimated, t.ShownCounted, t.ShownEstimated)
		if len(rep.Baselines) == 0 {
			p.f("Saved = raw - shown; %% = saved / raw.")
		} else {
			p.f("Saved = baseline - shown; %% = saved / baseline. The baseline is the raw output, or what the client\n"+
				"would have shown of it where it cuts it itself: %s tokens in all. Runs counted that way:\n", tok(t.BaselineTokens, t.RawEstimated > 0))
			for _, b := range rep.Baselines {
				p.f("  %s: %s\n", b.How, runs(b.Runs))
			}
		}
		if est {
			p.f(" ~ marks figures that include estimates (see the end).")
		}
		p.f("\n")
	}
	if len(rep.Rules) > 0 {
		p.f("\n")
		p.table(rowTable("rule", rep.Rules))
	}
	if len(rep.Commands) > 0 {
		p.f("\n")
		p.table(rowTable("command", rep.Commands))
	}
	if len(rep.Worst) > 0 {
		p.f("\nLeast saved (shrinkrun show RAW_ID prints a raw output):\n")
		tab := [][]string{{"time", "command", "raw", "shown", "saved", "printed", "raw_id"}}
		for _, r := range rep.Worst {
			id := r.RawID
			switch {
			case id == "":
				id = "(not kept)"
			case !r.RawCounted:
				id += " (gone)"
			}
			tab = append(tab, []string{
				r.Time.In(rep.Now.Location()).Format("2006-01-02 15:04"), clip(r.Command, 40),
				tok(r.RawTokens, !r.RawCounted), tok(r.ShownTokens, !r.ShownCounted), pctText(r.SavedPct), r.Shown, id,
			})
		}
		p.table(tab, 2, 3, 4)
	}
	if len(rep.Passthrough) > 0 {
		p.f("\nPassed through most often (no rule read their output; the top ones are the candidates\nfor the next rule):\n")
		tab := [][]string{{"command", "runs", "failed", "time", "reason"}}
		for _, r := range rep.Passthrough {
			tab = append(tab, []string{clip(r.Name, 30), num(int64(r.Runs)), num(int64(r.Failed)), dur(r.DurationMS), clip(r.Reason, 60)})
		}
		p.table(tab, 1, 2, 3)
	}
	if len(rep.Days) > 0 {
		p.f("\nSaved tokens per day:\n")
		var top int64
		for _, d := range rep.Days {
			top = max(top, d.SavedTokens)
		}
		tab := [][]string{}
		for _, d := range rep.Days {
			tab = append(tab, []string{d.Date, bar(d.SavedTokens, top), tok(d.SavedTokens, d.Estimated), pctText(savedPct(d.SavedTokens+d.ShownTokens, d.ShownTokens))})
		}
		p.table(tab, 2, 3)
	}
	if len(rep.Runs) > 0 {
		p.f("\nSummarized runs:\n")
		tab := [][]string{{"time", "rule", "raw bytes", "raw tokens", "shown bytes", "shown tokens", "saved", "raw_id"}}
		for _, r := range rep.Runs {
			tab = append(tab, []string{
				r.Time.In(rep.Now.Location()).Format("2006-01-02 15:04:05"), r.Rule, num(r.RawBytes), tok(r.RawTokens, !r.RawCounted),
				num(r.ShownBytes), tok(r.ShownTokens, !r.ShownCounted), pctText(r.SavedPct), r.RawID,
			})
		}
		p.table(tab, 2, 3, 4, 5, 6)
	}
	if est {
		p.f("\nEstimates: tokens = bytes x tokens per byte, calibrated on the outputs counted\n(median error of estimating each from the others):\n")
		tab := [][]string{}
		for _, c := range rep.Calibration {
			from := "built-in default"
			if c.Outputs > 0 {
				from = fmt.Sprintf("%d outputs, median error %s", c.Outputs, pctText(c.MedianErrorPct))
			}
			tab = append(tab, []string{c.Of, strconv.FormatFloat(c.TokensPerByte, 'f', 4, 64), from, fmt.Sprintf("used %d times", c.Used)})
		}
		p.table(tab, 1)
	}
	if s := rep.Skipped; s.Malformed+s.Other > 0 {
		p.f("\nSkipped: %s, %s.\n", plural(s.Malformed, "history line that is not a record", "history lines that are not records"),
			plural(s.Other, "record of another format version", "records of another format version"))
	}
	return p.err
}

func rowTable(name string, rows []Row) ([][]string, int, int, int, int, int) {
	tab := [][]string{{name, "runs", "raw tokens", "shown tokens", "saved", "worst"}}
	for _, r := range rows {
		e := r.Estimated > 0
		tab = append(tab, []string{clip(r.Name, 30), num(int64(r.Runs)), tok(r.RawTokens, e), tok(r.ShownTokens, e), pctText(r.SavedPct), pctText(r.WorstPct)})
	}
	return tab, 1, 2, 3, 4, 5
}

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) f(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// table prints aligned columns, two spaces apart, without trailing blanks;
// the columns listed in right are right-aligned.
func (p *printer) table(rows [][]string, right ...int) {
	var width []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	isRight := map[int]bool{}
	for _, i := range right {
		isRight[i] = true
	}
	for _, r := range rows {
		var sb strings.Builder
		sb.WriteString("  ")
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if i > 0 {
				sb.WriteString("  ")
			}
			if isRight[i] {
				sb.WriteString(pad + c)
			} else {
				sb.WriteString(c + pad)
			}
		}
		p.f("%s\n", strings.TrimRight(sb.String(), " "))
	}
}

// num renders n with thousands separators.
func num(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var sb strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			sb.WriteByte(',')
		}
		sb.WriteRune(c)
	}
	if neg {
		return "-" + sb.String()
	}
	return sb.String()
}

func tok(n int64, estimated bool) string {
	if estimated {
		return "~" + num(n)
	}
	return num(n)
}

func pctText(p *float64) string {
	if p == nil {
		return "-"
	}
	return strconv.FormatFloat(*p, 'f', 1, 64) + "%"
}

func dur(ms float64) string {
	d := time.Duration(ms * float64(time.Millisecond))
	switch {
	case d < time.Minute:
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// clip shortens s to n characters, marking the cut with an ellipsis, and
// shows line breaks as spaces.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// bar draws v against top in eighths of a character.
func bar(v, top int64) string {
	if v <= 0 || top <= 0 {
		return ""
	}
	eighths := int(float64(v) / float64(top) * chartWidth * 8)
	if eighths == 0 {
		eighths = 1 // a day that saved anything shows
	}
	partial := []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}
	return strings.Repeat("█", eighths/8) + partial[eighths%8]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func runs(n int) string {
	if n == 1 {
		return "1 run"
	}
	return num(int64(n)) + " runs"
}

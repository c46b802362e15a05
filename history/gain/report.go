package gain

import (
	"cmp"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/shrinkrun/shrinkrun/agents/clients"
	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/history"
	"github.com/shrinkrun/shrinkrun/history/tokens"
)

// Schema is the version of the JSON report (docs/history.md).
const Schema = 1

// Default ratios, used only while the history has fewer than minSamples
// counted outputs to calibrate on: o200k_base tokens per byte over the
// recorded outputs (stdout plus stderr) and the golden blocks of the
// rules' corpora (rules/*/testdata), 215 outputs and 78 blocks
// (docs/history.md).
const (
	DefaultRawRatio   = 0.375
	DefaultBlockRatio = 0.348
	minSamples        = 3
)

// Options select and shape a report.
type Options struct {
	Now     time.Time // the clock; its location sets the days
	Since   time.Time // zero: the whole history
	Project string    // "": every directory; else this directory and those under it
	Days    int       // days in the chart, ending today
	Top     int       // rows per table and list
	Runs    bool      // list every summarized run
}

// Report is what `shrinkrun gain` prints; its JSON form is `gain --json`.
type Report struct {
	Schema      int        `json:"schema"`
	Encoding    string     `json:"encoding"`
	Now         time.Time  `json:"now"`
	Since       *time.Time `json:"since"`
	Project     string     `json:"project,omitempty"`
	Totals      Totals     `json:"totals"`
	Calibration []Ratio    `json:"calibration"`
	Rules       []Row      `json:"rules"`
	Commands    []Row      `json:"commands"`
	Passthrough []PassRow  `json:"passthrough"`
	Worst       []Run      `json:"worst"`
	Days        []Day      `json:"days"`
	Runs        []Run      `json:"runs,omitempty"`
	Skipped     Skipped    `json:"skipped"`
	// Baselines lists, when a run's client would have cut its raw output
	// itself, what the client does and for how many runs: their saving is
	// counted against what the client would have shown, not the raw bytes.
	Baselines []Baseline `json:"baselines,omitempty"`
}

// Baseline is one client's cut, and the runs it was the baseline of.
type Baseline struct {
	How  string `json:"how"`
	Runs int    `json:"runs"`
}

// Totals sum every selected run.
type Totals struct {
	Runs            int `json:"runs"`
	CuratedRuns     int `json:"curated_runs"`
	PassthroughRuns int `json:"passthrough_runs"`
	// The curated runs by what they printed: a block, or the raw output
	// (the block would not have been clearly smaller, or the rule failed).
	BlockRuns int `json:"block_runs"`
	RawRuns   int `json:"raw_runs"`
	// CutRuns are the pass-through runs the relay cut by shape past the
	// client's limit, with every byte their commands wrote and the bytes
	// that reached the caller (history.Record's, no tokens: the cut is
	// not kept).
	CutRuns       int   `json:"cut_runs"`
	CutRawBytes   int64 `json:"cut_raw_bytes"`
	CutShownBytes int64 `json:"cut_shown_bytes"`
	// Bytes and tokens cover the curated runs only: a pass-through run's
	// output reached the caller as the command wrote it, or cut.
	RawBytes    int64    `json:"raw_bytes"`
	ShownBytes  int64    `json:"shown_bytes"`
	RawTokens   int64    `json:"raw_tokens"`
	ShownTokens int64    `json:"shown_tokens"`
	SavedTokens int64    `json:"saved_tokens"`
	SavedPct    *float64 `json:"saved_pct"`
	// BaselineTokens is what the models would have read of the raw outputs
	// (Baselines says why it is less than RawTokens); saved is counted
	// against it. Omitted when it is RawTokens.
	BaselineTokens int64 `json:"baseline_tokens,omitempty"`
	// How each curated run's tokens were found: counted from the kept
	// output or block, or estimated from its bytes.
	RawCounted     int `json:"raw_counted"`
	RawEstimated   int `json:"raw_estimated"`
	ShownCounted   int `json:"shown_counted"`
	ShownEstimated int `json:"shown_estimated"`
}

// Ratio is one calibrated tokens-per-byte ratio.
type Ratio struct {
	// Of is "raw" (all raw outputs), "raw RULE" (one rule's) or "block".
	Of            string  `json:"of"`
	TokensPerByte float64 `json:"tokens_per_byte"`
	// Outputs is how many counted outputs it comes from; 0 for the
	// built-in default.
	Outputs int `json:"outputs"`
	// MedianErrorPct is the median error of estimating each of those
	// outputs from the others (leave-one-out), in percent; null for the
	// default.
	MedianErrorPct *float64 `json:"median_error_pct"`
	// Used counts the estimates made with it.
	Used int `json:"used"`
}

// Row is one line of the per-rule or per-command table.
type Row struct {
	Name        string   `json:"name"`
	Runs        int      `json:"runs"`
	RawBytes    int64    `json:"raw_bytes"`
	ShownBytes  int64    `json:"shown_bytes"`
	RawTokens   int64    `json:"raw_tokens"`
	ShownTokens int64    `json:"shown_tokens"`
	SavedTokens int64    `json:"saved_tokens"`
	SavedPct    *float64 `json:"saved_pct"`
	WorstPct    *float64 `json:"worst_pct"` // the lowest saved_pct of one run
	Estimated   int      `json:"estimated"` // runs with an estimated figure
	base        int64    // the tokens saved is counted against
}

// PassRow is one command that passed through.
type PassRow struct {
	Name       string  `json:"name"`
	Runs       int     `json:"runs"`
	Failed     int     `json:"failed"`      // runs with a non-zero exit status
	DurationMS float64 `json:"duration_ms"` // of the runs whose status is known
	Reason     string  `json:"reason"`      // the most frequent reason
}

// Run is one curated run, for the worst cases and --runs.
type Run struct {
	Time        time.Time `json:"time"`
	Cwd         string    `json:"cwd"`
	Command     string    `json:"command"`
	Rule        string    `json:"rule"`
	Exit        int       `json:"exit"`
	Shown       string    `json:"shown"`
	RawBytes    int64     `json:"raw_bytes"`
	ShownBytes  int64     `json:"shown_bytes"`
	RawTokens   int64     `json:"raw_tokens"`
	ShownTokens int64     `json:"shown_tokens"`
	SavedPct    *float64  `json:"saved_pct"`
	// BaselineTokens is what the client would have shown its model of the
	// raw output, and Baseline what it does, when it cuts it; both are
	// omitted when the model would have read it all.
	BaselineTokens int64  `json:"baseline_tokens,omitempty"`
	Baseline       string `json:"baseline,omitempty"`
	RawCounted     bool   `json:"raw_counted"`
	ShownCounted   bool   `json:"shown_counted"`
	RawID          string `json:"raw_id,omitempty"`
	ShownID        string `json:"shown_id,omitempty"`
}

// Day sums the runs of one calendar day.
type Day struct {
	Date        string `json:"date"`
	Runs        int    `json:"runs"`
	CuratedRuns int    `json:"curated_runs"`
	RawTokens   int64  `json:"raw_tokens"`
	ShownTokens int64  `json:"shown_tokens"`
	SavedTokens int64  `json:"saved_tokens"`
	Estimated   bool   `json:"estimated"`
}

// Skipped counts what the report could not use.
type Skipped struct {
	Malformed int `json:"malformed"` // history lines that are not a record
	Other     int `json:"other"`     // records of another format version
}

// calibration holds the ratios estimates use.
type calibration struct {
	raw    *Ratio
	byRule map[string]*Ratio
	block  *Ratio
}

// calibrate derives the ratios from every counted output of the whole
// history (not only the selected runs: more outputs, better ratios).
func calibrate(recs []history.Record, c Counts) calibration {
	type sample struct{ bytes, tokens int64 }
	var all []sample
	rules := map[string][]sample{}
	seen := map[string]bool{}
	for _, r := range recs {
		n, ok := c.Raw[r.RawID]
		if r.Mode != history.Curated || !ok || seen[r.RawID] || n.Bytes <= 0 || n.Tokens <= 0 {
			continue
		}
		seen[r.RawID] = true
		all = append(all, sample{n.Bytes, n.Tokens})
		rules[r.Rule] = append(rules[r.Rule], sample{n.Bytes, n.Tokens})
	}
	var blocks []sample
	for _, n := range c.Shown {
		if n.Bytes > 0 && n.Tokens > 0 {
			blocks = append(blocks, sample{n.Bytes, n.Tokens})
		}
	}
	ratio := func(of string, s []sample, def float64) *Ratio {
		if len(s) < minSamples {
			return &Ratio{Of: of, TokensPerByte: def}
		}
		var b, t int64
		for _, x := range s {
			b += x.bytes
			t += x.tokens
		}
		errs := make([]float64, len(s))
		for i, x := range s {
			est := float64(t-x.tokens) / float64(b-x.bytes) * float64(x.bytes)
			errs[i] = math.Abs(est-float64(x.tokens)) / float64(x.tokens) * 100
		}
		slices.Sort(errs)
		med := errs[len(errs)/2]
		if len(errs)%2 == 0 {
			med = (errs[len(errs)/2-1] + errs[len(errs)/2]) / 2
		}
		return &Ratio{Of: of, TokensPerByte: round(float64(t)/float64(b), 4), Outputs: len(s), MedianErrorPct: pct(round(med, 1))}
	}
	cal := calibration{raw: ratio("raw", all, DefaultRawRatio), byRule: map[string]*Ratio{}, block: ratio("block", blocks, DefaultBlockRatio)}
	for rule, s := range rules {
		if len(s) >= minSamples {
			cal.byRule[rule] = ratio("raw "+rule, s, 0)
		}
	}
	return cal
}

func (cal calibration) rawRatio(rule string) *Ratio {
	if r, ok := cal.byRule[rule]; ok {
		return r
	}
	return cal.raw
}

// list returns the ratios, those of rules sorted, for the report.
func (cal calibration) list() []Ratio {
	out := []Ratio{*cal.raw}
	for _, rule := range slices.Sorted(maps.Keys(cal.byRule)) {
		out = append(out, *cal.byRule[rule])
	}
	return append(out, *cal.block)
}

// measure finds the tokens of one curated run.
func measure(r history.Record, c Counts, cal calibration) Run {
	run := Run{Time: r.Time, Cwd: r.Cwd, Command: r.Command, Rule: r.Rule, Shown: r.Shown, RawID: r.RawID, ShownID: r.ShownID}
	if r.Exit != nil {
		run.Exit = *r.Exit
	}
	if r.RawBytes != nil {
		run.RawBytes = *r.RawBytes
	}
	if r.ShownBytes != nil {
		run.ShownBytes = *r.ShownBytes
	}
	estimate := func(bytes int64, ratio *Ratio) int64 {
		ratio.Used++
		return int64(math.Round(float64(bytes) * ratio.TokensPerByte))
	}
	if n, ok := c.Raw[r.RawID]; ok && n.Bytes == run.RawBytes {
		run.RawTokens, run.RawCounted = n.Tokens, true
	} else {
		run.RawTokens = estimate(run.RawBytes, cal.rawRatio(r.Rule))
	}
	switch {
	case r.Shown == history.ShownRaw && run.ShownBytes == run.RawBytes:
		// The raw output itself was printed.
		run.ShownTokens, run.ShownCounted = run.RawTokens, run.RawCounted
	case r.Shown == history.ShownRaw:
		// The printed output was the capture's head and tail: scale.
		if run.RawBytes > 0 {
			run.ShownTokens = int64(math.Round(float64(run.RawTokens) * float64(run.ShownBytes) / float64(run.RawBytes)))
		}
	default:
		if n, ok := c.Shown[r.ShownID]; ok && n.Bytes == run.ShownBytes {
			run.ShownTokens, run.ShownCounted = n.Tokens, true
		} else {
			run.ShownTokens = estimate(run.ShownBytes, cal.block)
		}
	}
	if shown, how := clients.Shown(clients.Name(r.Agent), run.RawBytes); how != "" && run.RawBytes > 0 {
		run.Baseline = how
		run.BaselineTokens = int64(math.Round(float64(run.RawTokens) * float64(shown) / float64(run.RawBytes)))
	}
	run.SavedPct = savedPct(run.base(), run.ShownTokens)
	return run
}

// base is the tokens a run's saving is counted against: what the model
// would have read of the raw output.
func (r Run) base() int64 {
	if r.Baseline != "" {
		return r.BaselineTokens
	}
	return r.RawTokens
}

// Build makes the report of recs, the whole history oldest first, from the
// counts c and the read statistics st.
func Build(recs []history.Record, c Counts, st history.ReadStats, o Options) Report {
	cal := calibrate(recs, c)
	rep := Report{
		Schema: Schema, Encoding: tokens.Encoding, Now: o.Now, Project: o.Project,
		Skipped: Skipped{Malformed: st.Malformed, Other: st.Other},
	}
	if !o.Since.IsZero() {
		rep.Since = &o.Since
	}
	rules := map[string]*Row{}
	commands := map[string]*Row{}
	pass := map[string]*passAcc{}
	days := map[string]*Day{}
	var runs []Run
	var base int64
	baselines := map[string]int{}
	for _, r := range recs {
		if !o.Since.IsZero() && r.Time.Before(o.Since) || !inProject(r.Cwd, o.Project) {
			continue
		}
		rep.Totals.Runs++
		day := r.Time.In(o.Now.Location()).Format(time.DateOnly)
		d := days[day]
		if d == nil {
			d = &Day{Date: day}
			days[day] = d
		}
		d.Runs++
		if r.Mode != history.Curated {
			rep.Totals.PassthroughRuns++
			key := Key(r.Command)
			p := pass[key]
			if p == nil {
				p = &passAcc{PassRow: PassRow{Name: key}, reasons: map[string]int{}}
				pass[key] = p
			}
			p.Runs++
			// A run that ended in an exec has no status and no duration:
			// shrinkrun became the command.
			if r.Exit != nil {
				if *r.Exit != 0 {
					p.Failed++
				}
				p.DurationMS += r.DurationMS
			}
			p.reasons[r.Reason]++
			if r.RawBytes != nil && r.ShownBytes != nil && *r.ShownBytes < *r.RawBytes {
				t := &rep.Totals
				t.CutRuns++
				t.CutRawBytes += *r.RawBytes
				t.CutShownBytes += *r.ShownBytes
			}
			continue
		}
		run := measure(r, c, cal)
		runs = append(runs, run)
		t := &rep.Totals
		t.CuratedRuns++
		if r.Shown == history.ShownBlock {
			t.BlockRuns++
		} else {
			t.RawRuns++
		}
		t.RawBytes += run.RawBytes
		t.ShownBytes += run.ShownBytes
		t.RawTokens += run.RawTokens
		t.ShownTokens += run.ShownTokens
		base += run.base()
		if run.Baseline != "" {
			baselines[run.Baseline]++
		}
		t.RawCounted += b2i(run.RawCounted)
		t.RawEstimated += b2i(!run.RawCounted)
		t.ShownCounted += b2i(run.ShownCounted)
		t.ShownEstimated += b2i(!run.ShownCounted)
		add(rules, run.Rule, run)
		add(commands, Key(run.Command), run)
		d.CuratedRuns++
		d.RawTokens += run.RawTokens
		d.ShownTokens += run.ShownTokens
		d.SavedTokens += run.base() - run.ShownTokens
		d.Estimated = d.Estimated || !run.RawCounted || !run.ShownCounted
	}
	rep.Totals.SavedTokens = base - rep.Totals.ShownTokens
	rep.Totals.SavedPct = savedPct(base, rep.Totals.ShownTokens)
	if len(baselines) > 0 {
		rep.Totals.BaselineTokens = base
		for _, how := range slices.Sorted(maps.Keys(baselines)) {
			rep.Baselines = append(rep.Baselines, Baseline{How: how, Runs: baselines[how]})
		}
	}
	rep.Calibration = cal.list()
	rep.Rules = rows(rules, 0)
	rep.Commands = rows(commands, o.Top)
	rep.Passthrough = passRows(pass, o.Top)
	rep.Worst = worst(runs, o.Top)
	rep.Days = dayList(days, o)
	if o.Runs {
		rep.Runs = runs
	}
	if rep.Rules == nil {
		rep.Rules = []Row{}
	}
	return rep
}

type passAcc struct {
	PassRow
	reasons map[string]int
}

func inProject(cwd, project string) bool {
	if project == "" {
		return true
	}
	return cwd == project || strings.HasPrefix(cwd, strings.TrimSuffix(project, string(filepath.Separator))+string(filepath.Separator))
}

func add(m map[string]*Row, name string, run Run) {
	row := m[name]
	if row == nil {
		row = &Row{Name: name}
		m[name] = row
	}
	row.Runs++
	row.RawBytes += run.RawBytes
	row.ShownBytes += run.ShownBytes
	row.RawTokens += run.RawTokens
	row.ShownTokens += run.ShownTokens
	row.SavedTokens += run.base() - run.ShownTokens
	row.base += run.base()
	if !run.RawCounted || !run.ShownCounted {
		row.Estimated++
	}
	if run.SavedPct != nil && (row.WorstPct == nil || *run.SavedPct < *row.WorstPct) {
		row.WorstPct = pct(*run.SavedPct)
	}
	row.SavedPct = savedPct(row.base, row.ShownTokens)
}

// rows sorts a table by tokens saved, most first, and keeps top rows (0:
// all).
func rows(m map[string]*Row, top int) []Row {
	out := make([]Row, 0, len(m))
	for _, r := range m {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b Row) int {
		return cmp.Or(cmp.Compare(b.SavedTokens, a.SavedTokens), cmp.Compare(b.Runs, a.Runs), strings.Compare(a.Name, b.Name))
	})
	if top > 0 && len(out) > top {
		out = out[:top]
	}
	return out
}

// passRows sorts the commands that passed through by how often, then by
// how long they took.
func passRows(m map[string]*passAcc, top int) []PassRow {
	out := make([]PassRow, 0, len(m))
	for _, p := range m {
		best, n := "", -1
		for reason, k := range p.reasons {
			if k > n || k == n && reason < best {
				best, n = reason, k
			}
		}
		p.Reason = best
		p.DurationMS = round(p.DurationMS, 3)
		out = append(out, p.PassRow)
	}
	slices.SortFunc(out, func(a, b PassRow) int {
		return cmp.Or(cmp.Compare(b.Runs, a.Runs), cmp.Compare(b.DurationMS, a.DurationMS), strings.Compare(a.Name, b.Name))
	})
	if top > 0 && len(out) > top {
		out = out[:top]
	}
	return out
}

// worst returns the runs that saved least, as a share of their raw tokens;
// among equals, the bigger output first.
func worst(runs []Run, top int) []Run {
	out := slices.Clone(runs)
	slices.SortStableFunc(out, func(a, b Run) int {
		pa, pb := math.Inf(1), math.Inf(1)
		if a.SavedPct != nil {
			pa = *a.SavedPct
		}
		if b.SavedPct != nil {
			pb = *b.SavedPct
		}
		return cmp.Or(cmp.Compare(pa, pb), cmp.Compare(b.RawTokens, a.RawTokens), b.Time.Compare(a.Time))
	})
	if top > 0 && len(out) > top {
		out = out[:top]
	}
	if out == nil {
		out = []Run{}
	}
	return out
}

// dayList returns the chart's days, ending today, with empty days filled
// in; none before the first selected run or before Since.
func dayList(m map[string]*Day, o Options) []Day {
	out := []Day{}
	if len(m) == 0 || o.Days <= 0 {
		return out
	}
	first := slices.Min(slices.Collect(maps.Keys(m)))
	loc := o.Now.Location()
	today := time.Date(o.Now.Year(), o.Now.Month(), o.Now.Day(), 0, 0, 0, 0, loc)
	// No day before the first run is shown, so no more days are walked
	// than lie between it and today (two more for a day of 23 hours):
	// --days 999999999999 costs what the history's span does.
	n := o.Days
	if f, err := time.ParseInLocation(time.DateOnly, first, loc); err == nil && !f.After(today) {
		n = int(min(int64(n), (today.Unix()-f.Unix())/(24*60*60)+2))
	}
	for i := n - 1; i >= 0; i-- {
		day := today.AddDate(0, 0, -i).Format(time.DateOnly)
		if day < first {
			continue
		}
		if d, ok := m[day]; ok {
			out = append(out, *d)
		} else {
			out = append(out, Day{Date: day})
		}
	}
	return out
}

func savedPct(raw, shown int64) *float64 {
	if raw <= 0 {
		return nil
	}
	return pct(round(float64(raw-shown)/float64(raw)*100, 1))
}

func pct(f float64) *float64 { return &f }

func round(f float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(f*p) / p
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// hasSubcommands reports programs whose second word names what they do, so
// that `git diff` and `git log` are different commands in the tables.
func hasSubcommands(prog string) bool {
	switch prog {
	case "git", "cargo", "go", "npm", "pnpm", "yarn", "bun", "deno", "npx", "docker", "podman",
		"kubectl", "gh", "make", "just", "uv", "pip", "pip3", "poetry", "terraform", "helm",
		"dotnet", "mvn", "gradle", "gradlew", "rustup", "brew", "apt", "apt-get", "systemctl",
		"bazel", "nx", "turbo", "bundle", "rake", "composer", "mix", "swift", "zig":
		return true
	}
	return false
}

// isSetup reports commands that only prepare for the one after them in
// `cd dir && make`: the key is taken from the next one.
func isSetup(prog string) bool {
	switch prog {
	case "cd", "pushd", "export", "source", ".", "set":
		return true
	}
	return false
}

// Key names the command of a record for the tables: the program's base
// name, with its subcommand for programs that have them (`git diff`,
// `cargo test`, `python -m pytest`), after leading NAME=value words. In a
// command string, the first command of a pipeline, and the first command
// after `cd DIR &&` and the like.
func Key(command string) string {
	var words []string
	for _, seg := range splitAny(command, "&&", "||", ";", "\n") {
		words = strings.Fields(strings.SplitN(seg, "|", 2)[0])
		_, words = classify.SplitAssigns(words)
		if len(words) > 0 && !isSetup(unquote(words[0])) {
			break
		}
	}
	if len(words) == 0 {
		return strings.TrimSpace(command)
	}
	prog := filepath.Base(unquote(words[0]))
	key := prog
	switch {
	case (prog == "python" || prog == "python3") && len(words) > 2 && words[1] == "-m":
		key += " -m " + unquote(words[2])
	case hasSubcommands(prog) && len(words) > 1 && isWord(unquote(words[1])):
		key += " " + unquote(words[1])
	}
	return key
}

func splitAny(s string, seps ...string) []string {
	out := []string{s}
	for _, sep := range seps {
		var next []string
		for _, part := range out {
			next = append(next, strings.Split(part, sep)...)
		}
		out = next
	}
	return out
}

// isWord reports a subcommand-like word: lower-case letters, digits, - _ :.
func isWord(w string) bool {
	if w == "" || w[0] < 'a' || w[0] > 'z' {
		return false
	}
	for _, c := range []byte(w) {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == ':') {
			return false
		}
	}
	return true
}

func unquote(w string) string {
	if len(w) >= 2 && (w[0] == '\'' || w[0] == '"') && w[len(w)-1] == w[0] {
		return w[1 : len(w)-1]
	}
	return w
}

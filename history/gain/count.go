// Package gain turns the history into the savings `shrinkrun gain` reports:
// token counts of the kept outputs and blocks ([CountAll]), a calibrated
// estimate where they are gone, and the totals, tables and daily chart
// ([Build], [Report.WriteText], JSON).
//
// It is apart from package history, which every run uses to append a
// record, because it carries the tokenizer and the aggregation that only
// gain needs: a run never loads either. Build is pure, so golden tests feed
// it a fixed history and clock.
package gain

import (
	"encoding/json"
	"runtime"
	"sync"

	"github.com/shrinkrun/shrinkrun/history"
	"github.com/shrinkrun/shrinkrun/history/tokens"
	"github.com/shrinkrun/shrinkrun/privdir"
	"github.com/shrinkrun/shrinkrun/store"
)

// Count is the size of one kept output or block.
type Count struct {
	Bytes  int64 `json:"bytes"`
	Tokens int64 `json:"tokens"`
}

// Counts are the exact token counts gain could make, by ID.
type Counts struct {
	Raw   map[string]Count // raw outputs in the store: stdout plus stderr
	Shown map[string]Count // kept blocks
}

// cacheName is the file, in the history directory, that remembers counts.
// Store entries and kept blocks are named by their content, so a count
// never goes stale: the cache is dropped only when the tokenizer changes.
const cacheName = "tokens.cache"

const cacheVersion = 1

type cacheFile struct {
	Version  int              `json:"version"`
	Encoding string           `json:"encoding"`
	Raw      map[string]Count `json:"raw"`
	Shown    map[string]Count `json:"shown"`
}

// CountAll counts the tokens of every raw output and block that recs name
// and that is still kept, in the store and the history directory (nil when
// it could not be opened), or takes the count from
// the cache of an earlier gain. Outputs pruned since are counted from the
// cache when an earlier gain counted them. The cache is rewritten with the
// counts of the IDs recs name; failing to write it costs only time.
func CountAll(recs []history.Record, storeDir, histDir *privdir.Dir) Counts {
	cache := readCache(histDir)
	c := Counts{Raw: map[string]Count{}, Shown: map[string]Count{}}
	type job struct {
		shown bool
		id    string
	}
	var jobs []job
	for _, r := range recs {
		if r.RawID != "" {
			if _, seen := c.Raw[r.RawID]; !seen {
				if n, ok := cache.Raw[r.RawID]; ok {
					c.Raw[r.RawID] = n
				} else {
					c.Raw[r.RawID] = Count{Bytes: -1}
					jobs = append(jobs, job{false, r.RawID})
				}
			}
		}
		if r.ShownID != "" {
			if _, seen := c.Shown[r.ShownID]; !seen {
				if n, ok := cache.Shown[r.ShownID]; ok {
					c.Shown[r.ShownID] = n
				} else {
					c.Shown[r.ShownID] = Count{Bytes: -1}
					jobs = append(jobs, job{true, r.ShownID})
				}
			}
		}
	}
	if len(jobs) > 0 {
		results := make([]Count, len(jobs))
		oks := make([]bool, len(jobs))
		var wg sync.WaitGroup
		next := make(chan int)
		for range runtime.GOMAXPROCS(0) {
			wg.Go(func() {
				for i := range next {
					if jobs[i].shown {
						results[i], oks[i] = countShown(histDir, jobs[i].id)
					} else {
						results[i], oks[i] = countRaw(storeDir, jobs[i].id)
					}
				}
			})
		}
		for i := range jobs {
			next <- i
		}
		close(next)
		wg.Wait()
		for i, j := range jobs {
			m := c.Raw
			if j.shown {
				m = c.Shown
			}
			if oks[i] {
				m[j.id] = results[i]
			} else {
				delete(m, j.id)
			}
		}
	}
	writeCache(histDir, c)
	return c
}

func countRaw(storeDir *privdir.Dir, id string) (Count, bool) {
	if storeDir == nil {
		return Count{}, false
	}
	s, err := store.Open(storeDir, id)
	if err != nil {
		return Count{}, false
	}
	defer s.Close()
	var c Count
	for _, which := range []store.Streams{store.Stdout, store.Stderr} {
		n, err := countStream(s, which)
		if err != nil {
			return Count{}, false // pruned meanwhile
		}
		c.Bytes += n.Bytes
		c.Tokens += n.Tokens
	}
	return c, true
}

// countStream counts a stored stream without reading it into memory whole:
// the store keeps every byte, however many.
func countStream(s *store.Stored, which store.Streams) (Count, error) {
	f, err := s.OpenStream(which)
	if err != nil {
		return Count{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Count{}, err
	}
	n, err := tokens.CountReader(f)
	return Count{Bytes: fi.Size(), Tokens: n}, err
}

func countShown(histDir *privdir.Dir, id string) (Count, bool) {
	if histDir == nil {
		return Count{}, false
	}
	b, ok := history.ReadShown(histDir, id)
	if !ok {
		return Count{}, false
	}
	return Count{Bytes: int64(len(b)), Tokens: int64(tokens.Count(b))}, true
}

func readCache(histDir *privdir.Dir) cacheFile {
	var c cacheFile
	if histDir == nil {
		return c
	}
	b, err := histDir.ReadFile(cacheName)
	if err != nil || json.Unmarshal(b, &c) != nil || c.Version != cacheVersion || c.Encoding != tokens.Encoding {
		return cacheFile{}
	}
	return c
}

// writeCache replaces the cache atomically (a temporary file renamed over
// it), so concurrent gains each leave a whole cache.
func writeCache(histDir *privdir.Dir, c Counts) {
	if histDir == nil {
		return // no history directory: nothing was ever recorded
	}
	b, err := json.Marshal(cacheFile{Version: cacheVersion, Encoding: tokens.Encoding, Raw: c.Raw, Shown: c.Shown})
	if err != nil {
		return
	}
	f, name, err := histDir.CreateTemp(".tokens-")
	if err != nil {
		return
	}
	_, werr := f.Write(b)
	if cerr := f.Close(); werr == nil && cerr == nil {
		if histDir.Rename(name, cacheName) == nil {
			return
		}
	}
	histDir.Remove(name)
}

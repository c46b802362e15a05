package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"

	"github.com/shrinkrun/shrinkrun/privdir"
)

// ReadStats says what Read had to skip.
type ReadStats struct {
	Files     int // history files read
	Malformed int // lines that are not a record (a write cut short by a full disk, a foreign edit)
	Other     int // records of another format version
	Refused   int // files refused as links, another user's, or writable by others (package privdir)
}

// Read returns every record of the history in dir, oldest first, and what
// it skipped. Every file is opened and checked through dir (package
// privdir): one that is a link or another user's is skipped and counted.
//
// Appends may run while Read reads: a last line without its newline is a
// record still being written and is left for next time, not counted as
// malformed. A line holding two records (a write cut short, then a whole
// one appended to it) yields the second.
func Read(dir *privdir.Dir) ([]Record, ReadStats, error) {
	var st ReadStats
	names, err := files(dir)
	if err != nil {
		return nil, st, err
	}
	var recs []Record
	for _, name := range names {
		f, err := dir.OpenFile(name, os.O_RDONLY, 0)
		var unsafe *privdir.UnsafeError
		if errors.Is(err, fs.ErrNotExist) {
			continue // rotated or pruned meanwhile, or no current file yet
		} else if errors.As(err, &unsafe) {
			st.Refused++
			continue
		} else if err != nil {
			return nil, st, err
		}
		st.Files++
		recs, err = readFile(f, recs, &st)
		f.Close()
		if err != nil {
			return nil, st, err
		}
	}
	// Segments hold records in append order, and a process that opened the
	// current file before a rotation appends to the new segment: sort.
	slices.SortStableFunc(recs, func(a, b Record) int { return a.Time.Compare(b.Time) })
	return recs, st, nil
}

func readFile(r io.Reader, recs []Record, st *ReadStats) ([]Record, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			if rec, ok := parse(line, st); ok {
				recs = append(recs, rec)
			}
		}
		if err == io.EOF {
			return recs, nil
		} else if err != nil {
			return recs, err
		}
	}
}

// recordStart is how every encoded record begins.
var recordStart = []byte(`{"v":`)

func parse(line []byte, st *ReadStats) (Record, bool) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return Record{}, false
	}
	var rec Record
	if err := json.Unmarshal(line, &rec); err != nil {
		// A torn write followed by a whole record on the same line.
		i := bytes.LastIndex(line, recordStart)
		if i <= 0 || json.Unmarshal(line[i:], &rec) != nil {
			st.Malformed++
			return Record{}, false
		}
		st.Malformed++ // the torn part
	}
	if rec.V != Version {
		st.Other++
		return Record{}, false
	}
	return rec, true
}

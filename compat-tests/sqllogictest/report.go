package sqllogictest

import (
	"fmt"
	"strings"
)

// Outcome is what became of one record.
type Outcome int

const (
	Passed Outcome = iota
	Failed
	// SetUp records were stood in for by the storage-API shim: neither
	// passed nor failed by the server.
	SetUp
	// Skipped records are for another engine (onlyif/skipif).
	Skipped
)

func (o Outcome) String() string {
	switch o {
	case Passed:
		return "passed"
	case Failed:
		return "failed"
	case SetUp:
		return "setup via storage API"
	case Skipped:
		return "skipped"
	}
	return fmt.Sprintf("outcome(%d)", int(o))
}

// Result is one record's outcome; Reason says why it failed.
type Result struct {
	Record  Record
	Outcome Outcome
	Reason  string
}

// FileReport is the outcomes of one file's records, in file order.
type FileReport struct {
	Name    string
	Results []Result
}

// Counts tallies outcomes. Records are those that run on the engine:
// Passed + Failed + SetUp.
type Counts struct {
	Records, Passed, Failed, SetUp, Skipped int
}

func (c *Counts) add(o Outcome) {
	switch o {
	case Passed:
		c.Passed++
	case Failed:
		c.Failed++
	case SetUp:
		c.SetUp++
	case Skipped:
		c.Skipped++
		return
	}
	c.Records++
}

// Counts tallies the file's outcomes.
func (f *FileReport) Counts() Counts {
	var c Counts
	for _, r := range f.Results {
		c.add(r.Outcome)
	}
	return c
}

// Report is a run of a suite against one server.
type Report struct {
	Engine string
	Files  []*FileReport
}

// Counts tallies all files.
func (r *Report) Counts() Counts {
	var c Counts
	for _, f := range r.Files {
		for _, res := range f.Results {
			c.add(res.Outcome)
		}
	}
	return c
}

// Passing returns the IDs of the passed records, in file order.
func (r *Report) Passing() []string {
	var out []string
	for _, f := range r.Files {
		for _, res := range f.Results {
			if res.Outcome == Passed {
				out = append(out, res.Record.ID())
			}
		}
	}
	return out
}

// Failures returns the failed records, in file order.
func (r *Report) Failures() []Result {
	var out []Result
	for _, f := range r.Files {
		for _, res := range f.Results {
			if res.Outcome == Failed {
				out = append(out, res)
			}
		}
	}
	return out
}

// Format is a plain-text table of per-file counts followed by the first
// maxFailures failures of each file with their reasons.
func (r *Report) Format(title string, maxFailures int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", title)
	fmt.Fprintf(&b, "%-30s %7s %7s %7s %7s %7s\n", "file", "records", "passed", "failed", "setup", "skipped")
	for _, f := range r.Files {
		c := f.Counts()
		fmt.Fprintf(&b, "%-30s %7d %7d %7d %7d %7d\n", f.Name, c.Records, c.Passed, c.Failed, c.SetUp, c.Skipped)
	}
	c := r.Counts()
	fmt.Fprintf(&b, "%-30s %7d %7d %7d %7d %7d\n", "total", c.Records, c.Passed, c.Failed, c.SetUp, c.Skipped)
	for _, f := range r.Files {
		shown := 0
		for _, res := range f.Results {
			if res.Outcome != Failed {
				continue
			}
			if shown == maxFailures {
				fmt.Fprintf(&b, "  %s: %d more failures\n", f.Name, f.Counts().Failed-shown)
				break
			}
			fmt.Fprintf(&b, "  %s  %s\n      %s\n", res.Record.ID(), res.Record.Summary(), res.Reason)
			shown++
		}
	}
	return b.String()
}

// MarkdownTable is the per-file comparison of SQE and PostgreSQL for the
// README: records SQE passes out of those it ran, and setup records the
// shim stood in for, beside PostgreSQL's passes.
func MarkdownTable(sqe, pg *Report) string {
	var b strings.Builder
	b.WriteString("| file | records | SQE passed | SQE failed | setup via storage API | PostgreSQL 15 passed |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: |\n")
	pgByName := map[string]Counts{}
	for _, f := range pg.Files {
		pgByName[f.Name] = f.Counts()
	}
	for _, f := range sqe.Files {
		c, p := f.Counts(), pgByName[f.Name]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d |\n", f.Name, c.Records, c.Passed, c.Failed, c.SetUp, p.Passed)
	}
	c, p := sqe.Counts(), pg.Counts()
	fmt.Fprintf(&b, "| total | %d | %d | %d | %d | %d of %d |\n", c.Records, c.Passed, c.Failed, c.SetUp, p.Passed, p.Records)
	return b.String()
}

// oneLine keeps a reason on one short line.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	const limit = 240
	if len(s) > limit {
		s = s[:limit] + "..."
	}
	return s
}

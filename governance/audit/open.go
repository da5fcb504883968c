package audit

import (
	"fmt"
	"io"
	"os"
)

// The sinks an audit log can be written to.
const (
	SinkStdout = "stdout"
	SinkFile   = "file"
)

// Open starts an Auditor on sink: standard output, or the file at path,
// created with mode 0600 when missing and only ever appended to, with
// SQE's records or (SinkRanger) Ranger's audit events.
func Open(sink, path string, stdout io.Writer, opts Options) (*Auditor, error) {
	switch sink {
	case SinkStdout:
		return New(stdout, nil, opts), nil
	case SinkFile, SinkRanger:
		opts.Ranger = sink == SinkRanger
		if path == "" {
			return nil, fmt.Errorf("audit log: the file sink needs a path")
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return nil, fmt.Errorf("audit log: %w", err)
		}
		return New(f, f, opts), nil
	}
	return nil, fmt.Errorf("audit log: sink must be %q, %q or %q, not %q", SinkStdout, SinkFile, SinkRanger, sink)
}

// Package audit is SQE's audit log: one JSON object per line for every
// statement a session runs (who, the statement with its literals
// redacted, how long it took, how many rows, the outcome) and for every
// privilege change (who, what, on what, the result).
//
// An Auditor hands records to one writer goroutine through a bounded
// channel, so a session never waits on the disk: when the channel is full
// the record is dropped and counted, and the count is logged. Statement
// text is redacted before it is queued (redact.go); tokens and passwords
// never reach the log, whatever redact_literals says.
package audit

package storage

import (
	"net/url"

	"github.com/uptrace/bun/driver/sqliteshim"
)

// busyTimeoutMillis is how long a connection waits for another process's
// write lock before SQLite reports "database is locked".
const busyTimeoutMillis = "10000"

// sqliteDSN builds the DSN for the catalog database at path. WAL lets
// readers run beside a writer; the busy timeout and immediate transactions
// let two processes share the file without failing on lock upgrades.
// sqliteshim picks the driver per build target and the two spell these
// settings differently.
func sqliteDSN(path string) string {
	q := url.Values{}
	switch sqliteshim.DriverName() {
	case "sqlite3": // github.com/mattn/go-sqlite3 (cgo builds)
		q.Set("_journal_mode", "WAL")
		q.Set("_busy_timeout", busyTimeoutMillis)
		q.Set("_txlock", "immediate")
	default: // modernc.org/sqlite
		q.Add("_pragma", "busy_timeout("+busyTimeoutMillis+")")
		q.Add("_pragma", "journal_mode(WAL)")
		q.Set("_txlock", "immediate")
	}
	return "file:" + path + "?" + q.Encode()
}

package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// dataWriteError gives a failure to create or write a data file (an
// unwritable or full warehouse, an object store that refuses the write or
// cannot be reached) SQLSTATE 58030 and a message saying why ("no space
// left on device", the store's reason); the file's path stays in the
// cause, for the server log. Other errors pass through.
func dataWriteError(tbl *table.Table, err error) error {
	var pe *pgerror.Error
	if errors.As(err, &pe) {
		return err
	}
	if isObjectStoreFailure(err) {
		return objectStoreFailure(err, "write a data file of", tableName(tbl))
	}
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		return pgerror.Wrap(err, pgerror.IOError, "could not write data file of table %s: %v",
			tableName(tbl), pathErr.Err)
	}
	return err
}

// checkWrittenRows fails a write whose data files hold fewer (or more)
// rows than were handed to the writer. iceberg-go's partitioned writer has
// been seen to end without an error when creating one partition's file
// failed; committing what it returned would report rows as written that
// no snapshot holds.
func checkWrittenRows(tbl *table.Table, files []iceberg.DataFile, fed int64) error {
	var written int64
	for _, f := range files {
		written += f.Count()
	}
	if written == fed {
		return nil
	}
	return pgerror.Wrap(fmt.Errorf("data files hold %d rows, %d were written", written, fed),
		pgerror.IOError, "could not write data files of table %s: %d of %d rows reached them", tableName(tbl), written, fed)
}

// tableName is the table's namespace-qualified name.
func tableName(tbl *table.Table) string {
	return strings.Join(tbl.Identifier(), ".")
}

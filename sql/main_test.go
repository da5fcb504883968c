package sql

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them: a
// query's parallel workers, storage readers and timers must end with
// the query.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

package pgwire

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them: a
// connection's goroutines, the sweeper and every statement's must end
// with their server.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

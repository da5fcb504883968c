package storage

import (
	"context"
)

// swapGroup moves the pointers of every table the group committed, in
// one SQLite transaction, and caches their new metadata.
func (c *embeddedCatalog) swapGroup(ctx context.Context, g *commitGroup) error {
	if err := c.swapPointers(ctx, g.swaps); err != nil {
		return err
	}
	for i, s := range g.swaps {
		c.metadata.put(s.to, g.metas[i])
	}
	return nil
}

package storage

// Each catalog keeps one plan cache for all its tables and users: the keys
// name what a plan is computed from (see planKey), so a plan is handed
// only to scans that would have planned the same files.

func (c *embeddedCatalog) planCache() *planCache { return c.plans }

func (c *restCatalog) planCache() *planCache { return c.plans }

func (c *embeddedCatalog) rowGroupCache() *rowGroupCache { return c.rowGroups }

func (c *restCatalog) rowGroupCache() *rowGroupCache { return c.rowGroups }

func (c *embeddedCatalog) chunkCache() *ChunkCache { return c.opts.ChunkCache }

func (c *restCatalog) chunkCache() *ChunkCache { return c.cfg.ChunkCache }

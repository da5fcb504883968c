package datagen

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Generate builds table at scale factor sf and calls emit with each batch
// of about batchRows rows (lineitem and partsupp batches end with a whole
// order or part, so they may be a few rows longer). The batch is released
// when emit returns; emit must Retain it to keep it. The same arguments
// give the same batches on every run. Generate stops at the first error
// from emit or when ctx is done.
func Generate(ctx context.Context, table string, sf float64, batchRows int, emit func(arrow.RecordBatch) error) error {
	c, err := openCursor(table, sf, batchRows)
	if err != nil {
		return err
	}
	defer c.release()
	for {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("generate %s: %w", table, err)
		}
		rec := c.batch()
		if rec == nil {
			return nil
		}
		err := emit(rec)
		rec.Release()
		if err != nil {
			return fmt.Errorf("generate %s: %w", table, err)
		}
	}
}

// openCursor starts generating table at sf.
func openCursor(table string, sf float64, batchRows int) (*cursor, error) {
	t, err := lookupTable(table)
	if err != nil {
		return nil, err
	}
	sc, err := newScale(sf)
	if err != nil {
		return nil, err
	}
	src := newSource(t.Name, sc, newRowRand(), newTextPool())
	return newCursor(t, src, batchRows), nil
}

// newSource is the generator of a known table.
func newSource(table string, sc scale, g *rowRand, pool textPool) rowSource {
	switch table {
	case "region":
		return &regionSource{g: g, pool: pool}
	case "nation":
		return &nationSource{g: g, pool: pool}
	case "supplier":
		return &supplierSource{g: g, pool: pool, sc: sc}
	case "customer":
		return &customerSource{g: g, pool: pool, sc: sc}
	case "part":
		return &partSource{g: g, pool: pool, sc: sc}
	case "partsupp":
		return &partsuppSource{g: g, pool: pool, sc: sc}
	case "orders":
		return &ordersSource{d: orderDraw{g: g, pool: pool, sc: sc}}
	case "lineitem":
		return &lineitemSource{d: orderDraw{g: g, pool: pool, sc: sc}}
	}
	panic("datagen: no generator for table " + table)
}

// Version changes whenever the generated rows change, so that data kept
// from an older generator is not mistaken for the current one.
const Version = 1

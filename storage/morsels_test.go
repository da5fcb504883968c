package storage

import (
	"errors"
	"io"
	"slices"
	"sync"
	"testing"
)

// readMorsel drains morsel i into its ids.
func readMorsel(t *testing.T, m *Morsels, i int) []int64 {
	t.Helper()
	st, err := m.Open(adminCtx(t), i)
	if err != nil {
		t.Errorf("Open(%d): %v", i, err)
		return nil
	}
	defer st.Close()
	var ids []int64
	for {
		rec, err := st.Next()
		if errors.Is(err, io.EOF) {
			return ids
		}
		if err != nil {
			t.Errorf("morsel %d: %v", i, err)
			return ids
		}
		for r := range int(rec.NumRows()) {
			ids = append(ids, valueAt(rec.Column(0), r).(int64))
		}
		rec.Release()
	}
}

func TestMorselsInOrderAreTheScan(t *testing.T) {
	ctx := adminCtx(t)
	// Row groups of at most 30 rows: each file splits into several morsels.
	tbl, err := createRowGroupTable(t, openCatalog(t, "wh", "", AllowAll{})).Append(ctx, idBatches(t, 0, 100, 40))
	if err != nil {
		t.Fatal(err)
	}
	if tbl, err = tbl.Append(ctx, idBatches(t, 1000, 1100, 40)); err != nil {
		t.Fatal(err)
	}
	_, rows := readAll(t, tbl, ScanRequest{Columns: []string{"id"}})
	var want []int64
	for _, r := range rows {
		want = append(want, r[0].(int64))
	}

	m, err := tbl.Morsels(ctx, ScanRequest{Columns: []string{"id"}, MorselRows: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.Len() < 4 {
		t.Fatalf("%d morsels, want one per row group (at least 4)", m.Len())
	}
	// Read all morsels at once, each on its own goroutine.
	parts := make([][]int64, m.Len())
	var wg sync.WaitGroup
	for i := range m.Len() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			parts[i] = readMorsel(t, m, i)
		}()
	}
	wg.Wait()
	var got []int64
	for _, p := range parts {
		if len(p) == 0 {
			t.Errorf("an empty morsel: %v", parts)
		}
		got = append(got, p...)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("morsels in order = %v\nscan = %v", got, want)
	}
}

func TestMorselsRefuseALimit(t *testing.T) {
	tbl := twoFileTable(t)
	if _, err := tbl.Morsels(adminCtx(t), ScanRequest{Limit: 5}); err == nil {
		t.Fatal("Morsels with a limit did not fail")
	}
	m, err := tbl.Morsels(adminCtx(t), ScanRequest{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.Len() != 2 {
		t.Fatalf("%d morsels of two single-row-group files", m.Len())
	}
	if _, err := m.Open(adminCtx(t), 2); err == nil {
		t.Fatal("Open past the end did not fail")
	}
}

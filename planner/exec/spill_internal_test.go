package exec

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestRemoveStaleSpillAreas: at start the server removes the spill areas
// of processes that are gone (and those of its own pid, which a previous
// process had), and leaves everything else: another live server's areas,
// and entries it does not name itself.
func TestRemoveStaleSpillAreas(t *testing.T) {
	dir := t.TempDir()
	// The parent of this test process is alive and is not this process.
	live := os.Getppid()
	entries := []struct {
		name    string
		dir     bool
		removed bool
	}{
		{name: fmt.Sprintf("%s%d-abc", spillAreaPrefix, 2147483646), dir: true, removed: true},
		{name: fmt.Sprintf("%s%d-def", spillAreaPrefix, os.Getpid()), dir: true, removed: true},
		{name: fmt.Sprintf("%s%d-ghi", spillAreaPrefix, live), dir: true},
		{name: spillAreaPrefix + "notapid-x", dir: true},
		{name: spillAreaPrefix + "2147483646", dir: true},
		{name: fmt.Sprintf("%s%d-file", spillAreaPrefix, 2147483646)},
		{name: "other-data", dir: true},
		{name: "notes.txt"},
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.name)
		if e.dir {
			if err := os.Mkdir(p, 0o700); err != nil {
				t.Fatal(err)
			}
			p = filepath.Join(p, "sort-1.arrow")
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	n, err := NewSpillDir(dir).RemoveStale()
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, e := range entries {
		_, err := os.Stat(filepath.Join(dir, e.name))
		gone := errors.Is(err, fs.ErrNotExist)
		if gone != e.removed {
			t.Errorf("%s: removed %v, want %v", e.name, gone, e.removed)
		}
		if e.removed {
			want++
		}
	}
	if n != want {
		t.Errorf("RemoveStale = %d, want %d", n, want)
	}
	if n, err := NewSpillDir(filepath.Join(dir, "absent")).RemoveStale(); n != 0 || err != nil {
		t.Errorf("absent dir: %d, %v", n, err)
	}
}

func TestSpillIOErrorCodes(t *testing.T) {
	tests := []struct {
		err      error
		code     string
		message  string
		hintSays string
	}{
		{&fs.PathError{Op: "write", Path: "/secret/sort-1.arrow", Err: syscall.ENOSPC}, pgerror.DiskFull, "could not write to temporary file: No space left on device", "spill_dir"},
		{&fs.PathError{Op: "write", Path: "/secret/sort-1.arrow", Err: syscall.EDQUOT}, pgerror.DiskFull, "could not write to temporary file: Disk quota exceeded", "spill_dir"},
		{&fs.PathError{Op: "write", Path: "/secret/sort-1.arrow", Err: syscall.EIO}, pgerror.IOError, "could not write to temporary file: Input/output error", "spill_dir"},
		{fmt.Errorf("wrapped: %w", &fs.PathError{Op: "write", Path: "/secret/x", Err: syscall.EACCES}), pgerror.IOError, "could not write to temporary file: Permission denied", "spill_dir"},
	}
	for _, tt := range tests {
		t.Run(tt.code+" "+tt.message, func(t *testing.T) {
			var pe *pgerror.Error
			if !errors.As(spillIOError("write to temporary file", tt.err), &pe) {
				t.Fatal("not a pgerror")
			}
			if pe.Code != tt.code || pe.Message != tt.message {
				t.Errorf("%s %q, want %s %q", pe.Code, pe.Message, tt.code, tt.message)
			}
			if !errors.Is(pe, tt.err) {
				t.Error("the cause is lost")
			}
		})
	}
}

// TestSpillFileRoundTrip writes batches to a spill file and reads them
// back, and the area's Close removes its directory.
func TestSpillFileRoundTrip(t *testing.T) {
	d := NewSpillDir(filepath.Join(t.TempDir(), "spill"))
	area := d.NewArea()
	if area.Path() != "" {
		t.Fatal("an area exists before its first file")
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	w, err := newSpillWriter(area, "test", schema, 4<<10)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(area.Path())
	if err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("area %v, %v: want a 0700 directory", info, err)
	}
	var want []string
	for k := 0; k < 3; k++ {
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := 0; i < 1000; i++ {
			v := k*1000 + i
			if v%7 == 0 {
				b.Field(0).AppendNull()
			} else {
				b.Field(0).(*array.Int64Builder).Append(int64(v))
			}
			b.Field(1).(*array.StringBuilder).Append(strconv.Itoa(v))
			want = append(want, fmt.Sprintf("%v/%d", v%7 != 0, v))
		}
		rec := b.NewRecordBatch()
		b.Release()
		err := w.write(rec)
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	f, err := w.finish()
	if err != nil {
		t.Fatal(err)
	}
	if f.rows != 3000 || f.bytes == 0 || d.Totals().Bytes != f.bytes || d.Totals().Files != 1 {
		t.Errorf("file %+v, totals %+v", f, d.Totals())
	}
	r, err := f.open()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		b, err := r.next()
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		for i := 0; i < int(b.NumRows()); i++ {
			got = append(got, fmt.Sprintf("%v/%s", b.Column(0).IsValid(i), b.Column(1).(*array.String).Value(i)))
		}
		b.Release()
	}
	r.close()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("read back %d rows, not the %d written", len(got), len(want))
	}
	path := area.Path()
	if err := area.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the area is still there after Close: %v", err)
	}
	if _, err := area.create("late"); err == nil {
		t.Error("a closed area made a file")
	}
}

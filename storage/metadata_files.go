package storage

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"strconv"

	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// metadataFileName matches the names Iceberg gives metadata files,
// "00042-<uuid>.metadata.json" (optionally ".gz.metadata.json"), and the
// older "v42.metadata.json".
var metadataFileName = regexp.MustCompile(`^(?:(\d+)-[\w-]{36}(?:\.\w+)?|v(\d+)(?:\.gz)?)\.metadata\.json$`)

// nextMetadataLocation is where the version after current's goes, named by
// the table's location provider as every Iceberg writer names it.
func nextMetadataLocation(current string, updated table.Metadata) (string, error) {
	m := metadataFileName.FindStringSubmatch(path.Base(current))
	if m == nil {
		return "", fmt.Errorf("metadata file %s: name has no version", current)
	}
	digits := m[1]
	if digits == "" {
		digits = m[2]
	}
	version, err := strconv.Atoi(digits)
	if err != nil {
		return "", fmt.Errorf("metadata file %s: %w", current, err)
	}
	provider, err := table.LoadLocationProvider(updated.Location(), updated.Properties())
	if err != nil {
		return "", err
	}
	return provider.NewTableMetadataFileLocation(version + 1)
}

// writeMetadataFile writes meta as JSON at loc, compressed as the table's
// write.metadata.compression-codec says (none or gzip), taking snapshots'
// JSON from snaps (nil: none kept). A local file is flushed by sync
// before it is closed, unless sync is nil.
func writeMetadataFile(ctx context.Context, props iceberg.Properties, meta table.Metadata, loc string, snaps *snapshotJSON, sync fileSyncer) (err error) {
	fs, err := icebergio.LoadFS(ctx, props, loc)
	if err != nil {
		return err
	}
	wfs, ok := fs.(icebergio.WriteFileIO)
	if !ok {
		return errors.New("file system is read-only")
	}
	codec := meta.Properties().Get(table.MetadataCompressionKey, table.MetadataCompressionDefault)
	if codec != table.MetadataCompressionCodecNone && codec != table.MetadataCompressionCodecGzip {
		return fmt.Errorf("unsupported metadata compression codec %q", codec)
	}
	out, err := wfs.Create(loc)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, out.Close()) }()
	if codec == table.MetadataCompressionCodecGzip {
		gz := gzip.NewWriter(out)
		if err := snaps.encodeMetadata(gz, meta); err != nil {
			return err
		}
		if err := gz.Close(); err != nil {
			return err
		}
	} else if err := snaps.encodeMetadata(out, meta); err != nil {
		return err
	}
	return syncWritten(sync, out, loc)
}

// syncWritten flushes out, the file just written at loc, when it is local.
func syncWritten(sync fileSyncer, out io.Writer, loc string) error {
	if sync == nil {
		return nil
	}
	if _, local := localPath(loc); !local {
		return nil
	}
	f, ok := out.(openFile)
	if !ok {
		return fmt.Errorf("metadata file %s cannot be flushed (%T)", loc, out)
	}
	if err := sync.syncOpen(f); err != nil {
		return pgerror.Wrap(err, pgerror.IOError, "could not fsync %q: %v", f.Name(), err)
	}
	return nil
}

// encodeMetadata writes meta's JSON and a newline, as json.Encoder does.
// The JSON lists every snapshot of the table, so it grows with each
// commit; iceberg-go's MarshalJSON already returns it compact, and
// calling it directly spares the encoder's second pass over it.
func encodeMetadata(w io.Writer, meta table.Metadata) error {
	m, ok := meta.(json.Marshaler)
	if !ok {
		return json.NewEncoder(w).Encode(meta)
	}
	data, err := m.MarshalJSON()
	if err != nil {
		return fmt.Errorf("encode metadata: %w", err)
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	_, err = w.Write([]byte{'\n'})
	return err
}

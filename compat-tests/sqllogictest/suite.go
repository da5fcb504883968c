package sqllogictest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Suite is a directory of .slt files and the data files they load.
type Suite struct {
	Dir   string
	Files []*File
}

// LoadSuite parses every .slt file in dir, in name order.
func LoadSuite(dir string) (*Suite, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.slt"))
	if err != nil {
		return nil, fmt.Errorf("load suite %s: %w", dir, err)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("load suite %s: no .slt files", dir)
	}
	sort.Strings(paths)
	s := &Suite{Dir: dir}
	for _, p := range paths {
		f, err := ParseFile(p)
		if err != nil {
			return nil, fmt.Errorf("load suite: %w", err)
		}
		s.Files = append(s.Files, f)
	}
	return s, nil
}

// readData returns a data file of the suite by base name (the COPY
// records name paths in DataFusion's tree; only the base name is used).
func (s *Suite) readData(name string) ([]byte, error) {
	if name != filepath.Base(name) || strings.HasPrefix(name, ".") {
		return nil, fmt.Errorf("data file name %q is not a plain file name", name)
	}
	data, err := os.ReadFile(filepath.Join(s.Dir, name))
	if err != nil {
		return nil, fmt.Errorf("read data file: %w", err)
	}
	return data, nil
}

// Namespace is the schema a file's tables live in: one per file, named
// after it, as DataFusion's Postgres runner does, so that files creating
// the same table name do not meet. The "slt_" prefix keeps it clear of
// PostgreSQL's reserved "pg_" names.
func Namespace(fileName string) string {
	base := strings.TrimSuffix(filepath.Base(fileName), filepath.Ext(fileName))
	var b strings.Builder
	b.WriteString("slt_")
	for _, r := range strings.ToLower(base) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// Namespaces are the schemas of all files of the suite.
func (s *Suite) Namespaces() []string {
	out := make([]string, len(s.Files))
	for i, f := range s.Files {
		out[i] = Namespace(f.Name)
	}
	return out
}

package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// CopyMode is the data format of a COPY.
type CopyMode uint8

// The COPY data formats.
const (
	CopyText CopyMode = iota
	CopyCSV
	CopyBinary
)

func (m CopyMode) String() string {
	switch m {
	case CopyCSV:
		return "csv"
	case CopyBinary:
		return "binary"
	}
	return "text"
}

// CopyFormat is how a COPY ... TO STDOUT writes its rows: the data
// format, its options with PostgreSQL's defaults filled in, and the
// columns copied.
type CopyFormat struct {
	Mode CopyMode
	// Header asks for a first line of column names (text and csv).
	Header bool
	// Delimiter separates columns (text and csv).
	Delimiter byte
	// Null is written for a NULL (text and csv).
	Null string
	// Quote and Escape are csv's quoting characters.
	Quote, Escape byte
	// ForceQuote has one entry per column: quote every non-NULL value of
	// that column (csv). Nil when no column is forced.
	ForceQuote []bool
	// Columns are the columns copied, in order; their names make the
	// header line.
	Columns []Column
}

// copyOptions is what the options of a COPY statement say, before the
// columns are known.
type copyOptions struct {
	format         CopyFormat
	forceQuoteAll  bool
	forceQuote     []string // column names, unresolved
	forceQuoteElem *pg_query.DefElem
	// COPY FROM only: HEADER MATCH, and FORCE_NOT_NULL / FORCE_NULL
	// column names, unresolved.
	headerMatch  bool
	forceNotNull []string
	forceNull    []string
}

// parseCopyOptions reads a COPY statement's options, checking them in
// PostgreSQL 15's order with its errors (ProcessCopyOptions). Positions
// are those of the whole query string, as the parse tree's are.
func parseCopyOptions(opts []*pg_query.Node) (*copyOptions, error) {
	return parseCopyOptionsFor(opts, false)
}

// parseCopyOptionsFor reads the options of a COPY TO, or of a COPY FROM
// when from is set.
func parseCopyOptionsFor(opts []*pg_query.Node, from bool) (*copyOptions, error) {
	var (
		o                                  = &copyOptions{}
		formatSeen, freezeSeen, headerSeen bool
		delim, null, quote, escape         *string
		forceNotNull, forceNull            bool
		encodingSeen, convertSeen          bool
	)
	for _, n := range opts {
		d := n.GetDefElem()
		if d == nil {
			return nil, pgerror.New(pgerror.SyntaxError, "unexpected COPY option")
		}
		conflict := func() error {
			return pgerror.New(pgerror.SyntaxError, "conflicting or redundant options").WithPosition(d.Location + 1)
		}
		switch d.Defname {
		case "format":
			if formatSeen {
				return nil, conflict()
			}
			formatSeen = true
			f, err := defString(d)
			if err != nil {
				return nil, err
			}
			switch f {
			case "text":
				o.format.Mode = CopyText
			case "csv":
				o.format.Mode = CopyCSV
			case "binary":
				o.format.Mode = CopyBinary
			default:
				return nil, pgerror.New(pgerror.InvalidParameterValue, "COPY format \"%s\" not recognized", f).WithPosition(d.Location + 1)
			}
		case "freeze":
			// FREEZE means nothing to COPY TO; PostgreSQL 15 accepts it.
			if freezeSeen {
				return nil, conflict()
			}
			freezeSeen = true
			if _, err := defBoolean(d); err != nil {
				return nil, err
			}
		case "delimiter", "null", "quote", "escape":
			slot := &delim
			switch d.Defname {
			case "null":
				slot = &null
			case "quote":
				slot = &quote
			case "escape":
				slot = &escape
			}
			if *slot != nil {
				return nil, conflict()
			}
			v, err := defString(d)
			if err != nil {
				return nil, err
			}
			*slot = &v
		case "header":
			if headerSeen {
				return nil, conflict()
			}
			headerSeen = true
			h, match, err := defHeader(d, from)
			if err != nil {
				return nil, err
			}
			o.format.Header, o.headerMatch = h, match
		case "force_quote":
			if o.forceQuoteElem != nil {
				return nil, conflict()
			}
			o.forceQuoteElem = d
			if d.Arg.GetAStar() != nil {
				o.forceQuoteAll = true
				continue
			}
			names, err := defColumnList(d)
			if err != nil {
				return nil, err
			}
			o.forceQuote = names
		case "force_not_null", "force_null", "convert_selectively":
			slot := &convertSeen
			switch d.Defname {
			case "force_not_null":
				slot = &forceNotNull
			case "force_null":
				slot = &forceNull
			}
			if *slot {
				return nil, conflict()
			}
			*slot = true
			names, err := defColumnList(d)
			if err != nil {
				return nil, err
			}
			switch d.Defname {
			case "force_not_null":
				o.forceNotNull = names
			case "force_null":
				o.forceNull = names
			}
		case "encoding":
			if encodingSeen {
				return nil, conflict()
			}
			encodingSeen = true
			v, err := defString(d)
			if err != nil {
				return nil, err
			}
			if err := checkCopyEncoding(v, d.Location); err != nil {
				return nil, err
			}
		default:
			return nil, pgerror.New(pgerror.SyntaxError, "option \"%s\" not recognized", d.Defname).WithPosition(d.Location + 1)
		}
	}
	f := &o.format
	csv, binary := f.Mode == CopyCSV, f.Mode == CopyBinary
	if binary && delim != nil {
		return nil, pgerror.New(pgerror.SyntaxError, "cannot specify DELIMITER in BINARY mode")
	}
	if binary && null != nil {
		return nil, pgerror.New(pgerror.SyntaxError, "cannot specify NULL in BINARY mode")
	}
	d := "\t"
	if csv {
		d = ","
	}
	if delim != nil {
		d = *delim
	}
	nullText := `\N`
	if csv {
		nullText = ""
	}
	if null != nil {
		nullText = *null
	}
	if csv {
		if quote == nil {
			q := `"`
			quote = &q
		}
		if escape == nil {
			escape = quote
		}
	}
	if len(d) != 1 {
		return nil, pgerror.Unsupported("COPY delimiter must be a single one-byte character")
	}
	if d[0] == '\r' || d[0] == '\n' {
		return nil, pgerror.New(pgerror.InvalidParameterValue, "COPY delimiter cannot be newline or carriage return")
	}
	if strings.ContainsAny(nullText, "\r\n") {
		return nil, pgerror.New(pgerror.InvalidParameterValue, "COPY null representation cannot use newline or carriage return")
	}
	// Backslash, letters and digits would be ambiguous with text format's
	// escapes when the data is read back.
	if !csv && strings.IndexByte(`\.abcdefghijklmnopqrstuvwxyz0123456789`, d[0]) >= 0 {
		return nil, pgerror.New(pgerror.InvalidParameterValue, "COPY delimiter cannot be \"%s\"", d)
	}
	if binary && f.Header {
		return nil, pgerror.Unsupported("cannot specify HEADER in BINARY mode")
	}
	if !csv && quote != nil {
		return nil, pgerror.Unsupported("COPY quote available only in CSV mode")
	}
	if csv && len(*quote) != 1 {
		return nil, pgerror.Unsupported("COPY quote must be a single one-byte character")
	}
	if csv && d[0] == (*quote)[0] {
		return nil, pgerror.New(pgerror.InvalidParameterValue, "COPY delimiter and quote must be different")
	}
	if !csv && escape != nil {
		return nil, pgerror.Unsupported("COPY escape available only in CSV mode")
	}
	if csv && len(*escape) != 1 {
		return nil, pgerror.Unsupported("COPY escape must be a single one-byte character")
	}
	if !csv && o.forceQuoteElem != nil {
		return nil, pgerror.Unsupported("COPY force quote available only in CSV mode")
	}
	if !csv && forceNotNull {
		return nil, pgerror.Unsupported("COPY force not null available only in CSV mode")
	}
	if o.forceQuoteElem != nil && from {
		return nil, pgerror.Unsupported("COPY force quote only available using COPY TO")
	}
	if forceNotNull && !from {
		return nil, pgerror.Unsupported("COPY force not null only available using COPY FROM")
	}
	if !csv && forceNull {
		return nil, pgerror.Unsupported("COPY force null available only in CSV mode")
	}
	if forceNull && !from {
		return nil, pgerror.Unsupported("COPY force null only available using COPY FROM")
	}
	if strings.IndexByte(nullText, d[0]) >= 0 {
		return nil, pgerror.Unsupported("COPY delimiter must not appear in the NULL specification")
	}
	if csv && strings.IndexByte(nullText, (*quote)[0]) >= 0 {
		return nil, pgerror.Unsupported("CSV quote character must not appear in the NULL specification")
	}
	f.Delimiter, f.Null = d[0], nullText
	if csv {
		f.Quote, f.Escape = (*quote)[0], (*escape)[0]
	}
	return o, nil
}

// defString is an option's argument as a string (defGetString).
func defString(d *pg_query.DefElem) (string, error) {
	if d.Arg == nil {
		return "", pgerror.New(pgerror.SyntaxError, "%s requires a parameter", d.Defname)
	}
	switch a := d.Arg.Node.(type) {
	case *pg_query.Node_String_:
		return a.String_.Sval, nil
	case *pg_query.Node_Integer:
		return strconv.Itoa(int(a.Integer.Ival)), nil
	case *pg_query.Node_Float:
		return a.Float.Fval, nil
	case *pg_query.Node_Boolean:
		if a.Boolean.Boolval {
			return "true", nil
		}
		return "false", nil
	case *pg_query.Node_AStar:
		return "*", nil
	case *pg_query.Node_List:
		parts := make([]string, 0, len(a.List.Items))
		for _, it := range a.List.Items {
			parts = append(parts, it.GetString_().GetSval())
		}
		return strings.Join(parts, "."), nil
	}
	return "", pgerror.New(pgerror.SyntaxError, "%s requires a parameter", d.Defname)
}

// defBoolean is an option's argument as a boolean (defGetBoolean): no
// argument means true.
func defBoolean(d *pg_query.DefElem) (bool, error) {
	if d.Arg == nil {
		return true, nil
	}
	if i := d.Arg.GetInteger(); i != nil {
		switch i.Ival {
		case 0:
			return false, nil
		case 1:
			return true, nil
		}
	} else if s, err := defString(d); err == nil {
		if b, ok := parseBoolWord(s); ok {
			return b, nil
		}
	}
	return false, pgerror.New(pgerror.SyntaxError, "%s requires a Boolean value", d.Defname)
}

// defHeader is HEADER's argument (defGetCopyHeaderChoice): a boolean, or
// MATCH, which only COPY FROM knows (match then reports it).
func defHeader(d *pg_query.DefElem, from bool) (header, match bool, err error) {
	if d.Arg == nil {
		return true, false, nil
	}
	if i := d.Arg.GetInteger(); i != nil {
		switch i.Ival {
		case 0:
			return false, false, nil
		case 1:
			return true, false, nil
		}
	} else if s, err := defString(d); err == nil {
		if b, ok := parseBoolWord(s); ok {
			return b, false, nil
		}
		if strings.EqualFold(s, "match") {
			if from {
				return true, true, nil
			}
			return false, false, pgerror.Unsupported("cannot use \"%s\" with HEADER in COPY TO", s)
		}
	}
	return false, false, pgerror.New(pgerror.SyntaxError, "%s requires a Boolean value or \"match\"", d.Defname)
}

func parseBoolWord(s string) (value, ok bool) {
	switch strings.ToLower(s) {
	case "true", "on":
		return true, true
	case "false", "off":
		return false, true
	}
	return false, false
}

// defColumnList is an option's list of column names.
func defColumnList(d *pg_query.DefElem) ([]string, error) {
	l := d.Arg.GetList()
	if l == nil {
		return nil, pgerror.New(pgerror.InvalidParameterValue, "argument to option \"%s\" must be a list of column names", d.Defname).WithPosition(d.Location + 1)
	}
	names := make([]string, 0, len(l.Items))
	for _, it := range l.Items {
		names = append(names, it.GetString_().GetSval())
	}
	return names, nil
}

// checkCopyEncoding accepts the UTF8 encoding (SQE's only one), refuses
// the other encodings PostgreSQL knows as not supported yet, and anything
// else as PostgreSQL does.
func checkCopyEncoding(name string, location int32) error {
	key := strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, name)
	switch key {
	case "utf8", "unicode":
		return nil
	}
	for _, known := range pgEncodingNames {
		if key == known {
			return pgerror.Unsupported("COPY with ENCODING %s is not supported yet", name)
		}
	}
	return pgerror.New(pgerror.InvalidParameterValue, "argument to option \"encoding\" must be a valid encoding name").WithPosition(location + 1)
}

// pgEncodingNames are PostgreSQL's encoding names and aliases other than
// UTF8's, lower case without punctuation, as pg_char_to_encoding compares
// them.
var pgEncodingNames = [...]string{
	"sqlascii", "eucjp", "euccn", "euckr", "euctw", "eucjis2004", "muleinternal",
	"latin1", "latin2", "latin3", "latin4", "latin5", "latin6", "latin7", "latin8", "latin9", "latin10",
	"iso88591", "iso88592", "iso88593", "iso88594", "iso88599", "iso885910", "iso885913", "iso885914",
	"iso885915", "iso885916", "iso88595", "iso88596", "iso88597", "iso88598",
	"win1250", "win1251", "win1252", "win1253", "win1254", "win1255", "win1256", "win1257", "win1258",
	"win866", "win874", "win", "alt", "koi8", "koi8r", "koi8u", "sjis", "shiftjis", "shiftjis2004",
	"big5", "gbk", "uhc", "gb18030", "johab", "tcvn", "tcvn5712", "vscii", "mskanji", "abc",
	"windows1250", "windows1251", "windows1252", "windows1253", "windows1254", "windows1255",
	"windows1256", "windows1257", "windows1258", "windows866", "windows874", "windows932", "windows936",
	"windows949", "windows950", "cp932", "cp936", "cp949", "cp950", "cp1250", "cp1251", "cp1252",
	"cp1253", "cp1254", "cp1255", "cp1256", "cp1257", "cp1258", "cp866", "cp874",
}

package sql

import (
	"math"
	"strconv"
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// checkSetting validates a new value of a known setting the way
// PostgreSQL's check hooks do, whatever its source (SET, set_config or the
// startup packet), and returns the value in the spelling SHOW prints.
// Whether SQE can honour a valid value is decided afterwards (settings.set).
func checkSetting(key, value string) (string, error) {
	switch key {
	case "application_name":
		return cleanASCII(value), nil
	case "search_path":
		if _, ok := splitIdentifierList(value); !ok {
			return "", invalidSetting(key, value).WithDetail("List syntax is invalid.")
		}
		return value, nil
	case "datestyle":
		return checkDateStyle(value)
	case "intervalstyle":
		return checkEnumSetting(key, value, intervalStyles)
	case "client_encoding":
		return checkClientEncoding(value)
	case "extra_float_digits":
		return checkIntSetting(key, value, -15, 3)
	case "timezone":
		return timeZoneSetting(value)
	case "statement_timeout", "lock_timeout", "idle_in_transaction_session_timeout":
		d, err := parseTimeSetting(key, value)
		if err != nil {
			return "", err
		}
		return formatTimeSetting(d), nil
	case executionSetting:
		return checkEnumSetting(key, value, executionModes)
	case parallelWorkersSetting:
		n, err := parseParallelWorkers(value)
		if err != nil {
			return "", err
		}
		return strconv.Itoa(n), nil
	}
	return value, nil
}

// invalidSetting is PostgreSQL's error for a value a parameter does not
// take.
func invalidSetting(key, value string) *pgerror.Error {
	return pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", displayName(key), value)
}

// cleanASCII replaces every byte that is not printable ASCII with '?', as
// PostgreSQL does to application_name: the value reaches logs and other
// sessions' pg_stat_activity, which must not depend on client encodings.
func cleanASCII(v string) string {
	for i := 0; i < len(v); i++ {
		if v[i] < 32 || v[i] > 126 {
			b := []byte(v)
			for j := i; j < len(b); j++ {
				if b[j] < 32 || b[j] > 126 {
					b[j] = '?'
				}
			}
			return string(b)
		}
	}
	return v
}

// splitIdentifierList splits a comma-separated list of identifiers the
// way PostgreSQL's SplitIdentifierString does: a name is double-quoted
// (with "" for a quote, kept as written) or a run of characters other
// than whitespace and commas (folded to lower case); whitespace around
// names is ignored; an empty name makes the list invalid. An empty or
// all-blank string is the empty list.
func splitIdentifierList(v string) ([]string, bool) {
	var out []string
	i := skipSpace(v, 0)
	if i == len(v) {
		return nil, true
	}
	for {
		var name string
		if v[i] == '"' {
			var b strings.Builder
			i++
			for {
				end := strings.IndexByte(v[i:], '"')
				if end < 0 {
					return nil, false // unterminated quote
				}
				b.WriteString(v[i : i+end])
				i += end + 1
				if i < len(v) && v[i] == '"' {
					b.WriteByte('"')
					i++
					continue
				}
				break
			}
			name = b.String() // may be empty, as in PostgreSQL
		} else {
			start := i
			for i < len(v) && v[i] != ',' && !isSettingSpace(v[i]) {
				i++
			}
			if i == start {
				return nil, false // empty unquoted name
			}
			name = strings.ToLower(v[start:i])
		}
		out = append(out, name)
		i = skipSpace(v, i)
		if i == len(v) {
			return out, true
		}
		if v[i] != ',' {
			return nil, false // invalid syntax
		}
		i = skipSpace(v, i+1)
		if i == len(v) {
			return nil, false // a trailing comma
		}
	}
}

func skipSpace(v string, i int) int {
	for i < len(v) && isSettingSpace(v[i]) {
		i++
	}
	return i
}

func isSettingSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// checkDateStyle parses a DateStyle value as PostgreSQL's check_datestyle
// does: an output style (ISO, SQL, Postgres, German) and a field order
// (YMD, DMY, MDY and their synonyms), either optional, in any order, case
// insensitive. Whatever is left out keeps its built-in value; German alone
// implies DMY. The result is PostgreSQL's canonical "Style, ORDER".
func checkDateStyle(value string) (string, error) {
	tokens, ok := splitIdentifierList(value)
	if !ok {
		return "", invalidSetting("datestyle", value).WithDetail("List syntax is invalid.")
	}
	style, order := "ISO", "MDY"
	haveStyle, haveOrder, conflict := false, false, false
	setStyle := func(s string) {
		if haveStyle && style != s {
			conflict = true
		}
		style, haveStyle = s, true
	}
	setOrder := func(o string) {
		if haveOrder && order != o {
			conflict = true
		}
		order, haveOrder = o, true
	}
	for _, tok := range tokens {
		switch tok {
		case "iso":
			setStyle("ISO")
		case "sql":
			setStyle("SQL")
		case "postgres":
			setStyle("Postgres")
		case "german":
			setStyle("German")
			if !haveOrder {
				order = "DMY"
			}
		case "ymd":
			setOrder("YMD")
		case "dmy", "euro", "european":
			setOrder("DMY")
		case "mdy", "us", "noneuro", "noneuropean":
			setOrder("MDY")
		case "default":
			// The built-in value, for whatever the other words leave open.
			if !haveStyle {
				style = "ISO"
			}
			if !haveOrder {
				order = "MDY"
			}
		default:
			return "", invalidSetting("datestyle", value).WithDetail("Unrecognized key word: \"%s\".", tok)
		}
	}
	if conflict {
		return "", invalidSetting("datestyle", value).WithDetail("Conflicting \"datestyle\" specifications.")
	}
	return style + ", " + order, nil
}

// intervalStyles are the values IntervalStyle takes, in PostgreSQL's order.
var intervalStyles = []string{"postgres", "postgres_verbose", "sql_standard", "iso_8601"}

// checkEnumSetting accepts one of values, case insensitively, as
// PostgreSQL's enum parameters do.
func checkEnumSetting(key, value string, values []string) (string, error) {
	v := strings.ToLower(strings.TrimSpace(value))
	for _, allowed := range values {
		if v == allowed {
			return allowed, nil
		}
	}
	return "", invalidSetting(key, value).WithHint("Available values: %s.", strings.Join(values, ", "))
}

// checkIntSetting parses an integer parameter as PostgreSQL's parse_int
// does (decimal, 0x hex or 0 octal; a fractional value rounds half to
// even) and checks its range.
func checkIntSetting(key, value string, lo, hi int64) (string, error) {
	v := strings.TrimSpace(value)
	n, err := strconv.ParseInt(v, 0, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(v, 64)
		if ferr != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > math.MaxInt32 {
			return "", invalidSetting(key, value)
		}
		n = int64(math.RoundToEven(f))
	}
	if n < lo || n > hi {
		return "", pgerror.New(pgerror.InvalidParameterValue,
			"%d is outside the valid range for parameter \"%s\" (%d .. %d)", n, displayName(key), lo, hi)
	}
	return strconv.FormatInt(n, 10), nil
}

// encodingNames maps PostgreSQL's encoding names and aliases, with every
// character other than a letter or digit removed and folded to lower
// case (as pg_char_to_encoding compares them), to the canonical name.
var encodingNames = map[string]string{
	"abc": "WIN1258", "alt": "WIN866", "big5": "BIG5", "euccn": "EUC_CN", "eucjis2004": "EUC_JIS_2004",
	"eucjp": "EUC_JP", "euckr": "EUC_KR", "euctw": "EUC_TW", "gb18030": "GB18030", "gbk": "GBK",
	"iso88591": "LATIN1", "iso885910": "LATIN6", "iso885913": "LATIN7", "iso885914": "LATIN8",
	"iso885915": "LATIN9", "iso885916": "LATIN10", "iso88595": "ISO_8859_5", "iso88596": "ISO_8859_6",
	"iso88597": "ISO_8859_7", "iso88598": "ISO_8859_8", "iso88599": "LATIN5", "johab": "JOHAB",
	"koi8": "KOI8R", "koi8r": "KOI8R", "koi8u": "KOI8U", "latin1": "LATIN1", "latin2": "LATIN2",
	"latin3": "LATIN3", "latin4": "LATIN4", "latin5": "LATIN5", "latin6": "LATIN6", "latin7": "LATIN7",
	"latin8": "LATIN8", "latin9": "LATIN9", "latin10": "LATIN10", "mskanji": "SJIS",
	"muleinternal": "MULE_INTERNAL", "shiftjis": "SJIS", "shiftjis2004": "SHIFT_JIS_2004", "sjis": "SJIS",
	"sqlascii": "SQL_ASCII", "tcvn": "WIN1258", "tcvn5712": "WIN1258", "uhc": "UHC", "unicode": "UTF8",
	"utf8": "UTF8", "vscii": "WIN1258", "win": "WIN1251", "win1250": "WIN1250", "win1251": "WIN1251",
	"win1252": "WIN1252", "win1253": "WIN1253", "win1254": "WIN1254", "win1255": "WIN1255",
	"win1256": "WIN1256", "win1257": "WIN1257", "win1258": "WIN1258", "win866": "WIN866", "win874": "WIN874",
	"win932": "SJIS", "win936": "GBK", "win949": "UHC", "win950": "BIG5", "windows1250": "WIN1250",
	"windows1251": "WIN1251", "windows1252": "WIN1252", "windows1253": "WIN1253", "windows1254": "WIN1254",
	"windows1255": "WIN1255", "windows1256": "WIN1256", "windows1257": "WIN1257", "windows1258": "WIN1258",
	"windows866": "WIN866", "windows874": "WIN874", "windows932": "SJIS", "windows936": "GBK",
	"windows949": "UHC", "windows950": "BIG5",
}

// checkClientEncoding resolves an encoding name or alias to PostgreSQL's
// canonical name.
func checkClientEncoding(value string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(value); i++ {
		c := value[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b.WriteByte(c)
		}
	}
	if name, ok := encodingNames[b.String()]; ok {
		return name, nil
	}
	return "", invalidSetting("client_encoding", value)
}

// validCustomName reports whether name is a custom (placeholder)
// parameter name: two or more simple identifiers separated by dots, as
// PostgreSQL's valid_custom_variable_name requires.
func validCustomName(name string) bool {
	sawDot, partStart := false, true
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '.':
			if partStart {
				return false
			}
			sawDot, partStart = true, true
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
			partStart = false
		case !partStart && (c >= '0' && c <= '9' || c == '$'):
		default:
			return false
		}
	}
	return sawDot && !partStart
}

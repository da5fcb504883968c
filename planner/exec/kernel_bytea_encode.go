package exec

import (
	"encoding/base64"
	"encoding/hex"
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// encode and decode: bytea as text in the hex, base64 and escape
// formats.

func encodeKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) { return encodeBytes(v[0].([]byte), v[1].(string)) })
}

func decodeKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) { return decodeBytes(v[0].(string), v[1].(string)) })
}

// encodeBytes is encode(bytea, 'hex' | 'base64' | 'escape').
func encodeBytes(b []byte, format string) (any, error) {
	switch strings.ToLower(format) {
	case "hex":
		return hex.EncodeToString(b), nil
	case "base64":
		// PostgreSQL wraps base64 at 76 characters.
		enc := base64.StdEncoding.EncodeToString(b)
		var sb strings.Builder
		for len(enc) > 76 {
			sb.WriteString(enc[:76])
			sb.WriteByte('\n')
			enc = enc[76:]
		}
		sb.WriteString(enc)
		return sb.String(), nil
	case "escape":
		var sb strings.Builder
		for _, c := range b {
			switch {
			case c == '\\':
				sb.WriteString(`\\`)
			case c == 0 || c >= 0x80:
				sb.WriteString(`\` + string('0'+c>>6&7) + string('0'+c>>3&7) + string('0'+c&7))
			default:
				sb.WriteByte(c)
			}
		}
		return sb.String(), nil
	}
	return nil, pgerror.New(pgerror.InvalidParameterValue, "unrecognized encoding: \"%s\"", format)
}

// decodeBytes is decode(text, 'hex' | 'base64' | 'escape').
func decodeBytes(s, format string) (any, error) {
	switch strings.ToLower(format) {
	case "hex":
		b, err := hex.DecodeString(strings.TrimSpace(s))
		if err != nil {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "invalid hexadecimal data")
		}
		return b, nil
	case "base64":
		b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), ""))
		if err != nil {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "invalid base64 end sequence")
		}
		return b, nil
	case "escape":
		v, err := types.ParseBytea(s)
		if err != nil {
			return nil, err
		}
		return v, nil
	}
	return nil, pgerror.New(pgerror.InvalidParameterValue, "unrecognized encoding: \"%s\"", format)
}

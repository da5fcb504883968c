package masks

import (
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

func TestExpression(t *testing.T) {
	tests := []struct {
		maskType, custom, column string
		want                     string
		code                     string // SQLSTATE of the error, "" for none
	}{
		{"MASK", "", "ssn", `mask("ssn")`, ""},
		{"MASK_SHOW_LAST_4", "", "ssn", `mask_show_last_n("ssn", 4, 'x', 'x', 'x', -1, '1')`, ""},
		{"MASK_SHOW_FIRST_4", "", "ssn", `mask_show_first_n("ssn", 4, 'x', 'x', 'x', -1, '1')`, ""},
		{"MASK_HASH", "", "ssn", `mask_hash("ssn")`, ""},
		{"MASK_NULL", "", "ssn", "NULL", ""},
		{"MASK_NONE", "", "ssn", `"ssn"`, ""},
		{"MASK_DATE_SHOW_YEAR", "", "d", `mask("d", 'x', 'x', 'x', -1, '1', 1, 0, -1)`, ""},
		{"CUSTOM", "CASE WHEN {col} LIKE '1%' THEN {col} END", "ssn", `CASE WHEN "ssn" LIKE '1%' THEN "ssn" END`, ""},
		{"CUSTOM", "'***'", "ssn", "'***'", ""},

		// The hive component's qualified names, as tag policies write them.
		{"hive:MASK_SHOW_LAST_4", "", "ssn", `mask_show_last_n("ssn", 4, 'x', 'x', 'x', -1, '1')`, ""},
		{"hive:MASK_NULL", "", "ssn", "NULL", ""},
		{"hive:CUSTOM", "upper({col})", "ssn", `upper("ssn")`, ""},

		// Ranger matches these three ignoring case, the others exactly.
		{"mask_null", "", "ssn", "NULL", ""},
		{"Mask_None", "", "ssn", `"ssn"`, ""},
		{"custom", "{col}", "ssn", `"ssn"`, ""},
		{"mask_show_last_4", "", "ssn", "", pgerror.UndefinedObject},

		// The column is quoted as an identifier.
		{"MASK", "", "Tax ID", `mask("Tax ID")`, ""},
		{"MASK", "", `a"b`, `mask("a""b")`, ""},
		{"CUSTOM", "{col} || '!'", "SSN", `"SSN" || '!'`, ""},

		// What cannot be built fails.
		{"CUSTOM", "", "ssn", "", pgerror.InvalidParameterValue},
		{"CUSTOM", "  \n", "ssn", "", pgerror.InvalidParameterValue},
		{"hive:CUSTOM", "", "ssn", "", pgerror.InvalidParameterValue},
		{"trino:MASK_NULL", "", "ssn", "", pgerror.FeatureNotSupported},
		{"tag:MASK", "", "ssn", "", pgerror.FeatureNotSupported},
		{"MASK_SHOW_LAST_5", "", "ssn", "", pgerror.UndefinedObject},
		{"hive:MASK_UNKNOWN", "", "ssn", "", pgerror.UndefinedObject},
		{"", "", "ssn", "", pgerror.UndefinedObject},
	}
	for _, tc := range tests {
		got, err := Expression(tc.maskType, tc.custom, tc.column)
		if tc.code != "" {
			if pgerror.Code(err) != tc.code {
				t.Errorf("Expression(%q, %q, %q) = %q, %v; want error %s", tc.maskType, tc.custom, tc.column, got, err, tc.code)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Expression(%q, %q, %q) = %q, %v; want %q", tc.maskType, tc.custom, tc.column, got, err, tc.want)
		}
	}
}

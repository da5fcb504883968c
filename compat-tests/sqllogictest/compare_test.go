package sqllogictest

import (
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	rows := [][]string{{"10", "b"}, {"1", "a"}, {"2", "(empty)"}}
	tests := []struct {
		name     string
		sort     SortMode
		expected []string
		wantDiff string // "" for a match, else a fragment of the difference
	}{
		{"nosort in order", NoSort, []string{"10 b", "1 a", "2 (empty)"}, ""},
		{"nosort out of order", NoSort, []string{"1 a", "10 b", "2 (empty)"}, "line 1"},
		{"rowsort sorts values as lists", RowSort, []string{"1 a", "10 b", "2 (empty)"}, ""},
		{"valuesort", ValueSort, []string{"(empty)", "1", "10", "2", "a", "b"}, ""},
		{"trailing spaces ignored", NoSort, []string{"10 b  ", "1 a", "2 (empty)"}, ""},
		{"missing row", NoSort, []string{"10 b", "1 a"}, "got 3 lines, want 2"},
		{"extra expected row", NoSort, []string{"10 b", "1 a", "2 (empty)", "3 c"}, "first missing"},
		{"hash", NoSort, []string{"6 values hashing to " + hashValues([]string{"10", "b", "1", "a", "2", "(empty)"})}, ""},
		{"wrong hash", NoSort, []string{"6 values hashing to 00000000000000000000000000000000"}, "hashing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diff := Match(Record{Sort: tt.sort, Expected: tt.expected}, rows)
			switch {
			case tt.wantDiff == "" && diff != "":
				t.Errorf("Match = %q, want a match", diff)
			case tt.wantDiff != "" && !strings.Contains(diff, tt.wantDiff):
				t.Errorf("Match = %q, want a difference containing %q", diff, tt.wantDiff)
			}
		})
	}
}

func TestMatchEmptyResult(t *testing.T) {
	if diff := Match(Record{HasExpected: true}, nil); diff != "" {
		t.Errorf("empty result against empty block: %q", diff)
	}
	if diff := Match(Record{}, [][]string{{"1"}}); !strings.Contains(diff, "want 0") {
		t.Errorf("a row against no block: %q, want a difference", diff)
	}
}

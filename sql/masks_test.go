package sql

import (
	"context"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance/masks"
	"github.com/sqe-db/sqe/storage"
)

// TestMaskTypes applies each Ranger mask type of spec/002's table to the
// text column t (an SSN, then EU), the date column d and the integer
// column k of w.items, as gate two does: the mask's expression replaces
// the column under the caller's query.
func TestMaskTypes(t *testing.T) {
	s, cat := newWriteSession(t)
	runDMLSteps(t, s, []dmlStep{
		{sql: "INSERT INTO w.items (id, t, d, k) VALUES (1, '111-11-1111', '2021-05-04', 1234567), (2, 'EU', NULL, -42)", tag: "INSERT 0 2"},
	})
	key := []byte("mask-key-under-test")
	const query = "SELECT id, t, d, k FROM w.items ORDER BY id"
	tests := []struct {
		maskType, custom string
		key              []byte
		want             []string
	}{
		{maskType: "MASK_NULL", want: []string{"1|NULL|NULL|NULL", "2|NULL|NULL|NULL"}},
		{maskType: "MASK_SHOW_LAST_4", want: []string{"1|xxx-xx-1111|0001-01-01|1114567", "2|EU|NULL|-42"}},
		{maskType: "MASK_SHOW_FIRST_4", want: []string{"1|111-xx-xxxx|0001-01-01|1234111", "2|EU|NULL|-42"}},
		{maskType: "MASK", want: []string{"1|nnn-nn-nnnn|0001-01-01|1111111", "2|XX|NULL|-11"}},
		// Without a key, SHA-256; with one, HMAC-SHA256. Hive hashes text
		// only.
		{maskType: "MASK_HASH", want: []string{
			"1|4628ea314743d5ac373997763be3d39b86fc40c5d2015d2db345b0231e215b6c|NULL|NULL",
			"2|9170a8b2fb3234baa721bf8b3de5935d8d160f6f987215b83b07a49a403e5e74|NULL|NULL"}},
		{maskType: "MASK_HASH", key: key, want: []string{
			"1|b0dec38c29b87ba70ed13ccc519b858db4cd62728896a6c06c31fa35364420ec|NULL|NULL",
			"2|3195f0e5ebf10abdbf89b212ef913567bcae6ac09feffa0d3da2c132a4268aeb|NULL|NULL"}},
		{maskType: "MASK_DATE_SHOW_YEAR", want: []string{"1|xxx-xx-xxxx|2021-01-01|1111111", "2|xx|NULL|-11"}},
		// A CUSTOM expression that does not fit a column's type nulls it.
		{maskType: "CUSTOM", custom: "left({col}, 3) || '-**-****'", want: []string{"1|111-**-****|NULL|NULL", "2|EU-**-****|NULL|NULL"}},
		{maskType: "MASK_NONE", want: []string{"1|111-11-1111|2021-05-04|1234567", "2|EU|NULL|-42"}},
		{maskType: "hive:MASK_SHOW_LAST_4", want: []string{"1|xxx-xx-1111|0001-01-01|1114567", "2|EU|NULL|-42"}},
	}
	for _, tc := range tests {
		policy := rowPolicy{masks: map[int]string{}}
		for i, col := range map[int]string{2: "t", 3: "d", 5: "k"} {
			expr, err := masks.Expression(tc.maskType, tc.custom, col)
			if err != nil {
				t.Fatalf("%s on %s: %v", tc.maskType, col, err)
			}
			policy.masks[i] = expr
		}
		e := NewEngine(EngineConfig{MaskKey: tc.key}, []storage.Catalog{cat}, policy)
		bob, err := e.NewSession(context.Background(), auth.Identity{User: "bob"}, "sales_wh", []StartupSetting{{Name: "search_path", Value: "w"}})
		if err != nil {
			t.Fatal(err)
		}
		rows, _, err := run(t, bob, query)
		if err != nil {
			t.Errorf("%s: %v", tc.maskType, err)
			continue
		}
		if got, want := strings.Join(rows, "\n"), strings.Join(tc.want, "\n"); got != want {
			t.Errorf("%s (key %t): rows\n%s\nwant\n%s", tc.maskType, tc.key != nil, got, want)
		}
		if tc.key != nil {
			plan, _, err := run(t, bob, "EXPLAIN (VERBOSE) "+query)
			if err != nil {
				t.Fatal(err)
			}
			if text := strings.Join(plan, "\n"); strings.Contains(text, string(tc.key)) || !strings.Contains(text, "mask_hash") {
				t.Errorf("EXPLAIN shows the key, or no mask_hash:\n%s", text)
			}
		}
	}
}

// TestMaskTimestampInSessionZone checks that a timestamptz is masked as
// the date its wall clock shows in the session's TimeZone.
func TestMaskTimestampInSessionZone(t *testing.T) {
	tests := []struct {
		zone, value, want string
	}{
		{"UTC", "2021-01-01 02:00:00+00", "2021-01-01 00:00:00+00"},
		{"America/New_York", "2021-01-01 02:00:00+00", "2020-01-01 00:00:00-05"},
		{"Asia/Kolkata", "2020-12-31 20:00:00+00", "2021-01-01 00:00:00+05:30"},
	}
	for _, tc := range tests {
		s := newTestSession(t)
		rows, _, err := run(t, s, "SET TimeZone = '"+tc.zone+"'; SELECT mask(x, 'x', 'x', 'x', -1, '1', 1, 0, -1)::text FROM (VALUES ('"+tc.value+"'::timestamptz)) v(x)")
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(rows, "\n"); got != tc.want {
			t.Errorf("%s, %s: masked %s, want %s", tc.zone, tc.value, got, tc.want)
		}
	}
}

-- JSON (stored as text in all_types and cast on both engines) and arrays.

-- name: json_arrow_ops ordered
SELECT '{"a": {"b": 2}, "c": [10, 20]}'::json -> 'a', '{"a": {"b": 2}}'::json ->> 'a', '{"c": [10, 20]}'::jsonb -> 'c' -> 1, '[1, 2, 3]'::json ->> 2;

-- name: json_path_ops ordered
SELECT '{"a": {"b": [1, {"c": "x"}]}}'::jsonb #> '{a,b,1}', '{"a": {"b": [1, {"c": "x"}]}}'::jsonb #>> '{a,b,1,c}';

-- name: json_missing_key ordered
SELECT '{"a": 1}'::jsonb -> 'z', '{"a": 1}'::jsonb ->> 'z', '[1]'::jsonb -> 5, '{"a": null}'::jsonb ->> 'a';

-- name: json_column_extract ordered
SELECT id, js::jsonb ->> 'tag', (js::jsonb -> 'vals') -> 0 FROM types.all_types WHERE id > 10 AND js IS NOT NULL ORDER BY id;

-- name: json_column_filter ordered
SELECT id FROM types.all_types WHERE (js::jsonb ->> 'ok')::boolean ORDER BY id;

-- name: json_column_numeric ordered
SELECT sum((js::jsonb ->> 'id')::int) FROM types.all_types WHERE js LIKE '{"id"%';

-- name: json_jsonb_normalises ordered
SELECT id, js::jsonb FROM types.all_types WHERE id <= 10 ORDER BY id;

-- name: json_json_keeps_text ordered
SELECT id, js::json FROM types.all_types WHERE id <= 10 ORDER BY id;

-- name: json_typeof ordered
SELECT id, jsonb_typeof(js::jsonb) FROM types.all_types WHERE id <= 10 ORDER BY id;

-- name: json_array_length ordered
SELECT jsonb_array_length('[1, 2, [3]]'), json_array_length('[]');

-- name: json_build ordered
SELECT json_build_object('a', 1, 'b', 'x'), jsonb_build_array(1, 'two', NULL, true), json_build_array();

-- name: json_to_json ordered
SELECT to_json('text'::text), to_jsonb(42), to_json(ARRAY[1, 2]), to_jsonb(NULL::text);

-- name: json_contains ordered
SELECT '{"a": 1, "b": 2}'::jsonb @> '{"a": 1}', '{"a": 1}'::jsonb <@ '{"a": 1, "b": 2}', '{"a": 1}'::jsonb ? 'a', '{"a": 1}'::jsonb ? 'b';

-- name: json_keys ordered
SELECT jsonb_object_keys('{"b": 1, "a": 2, "c": 3}') AS k ORDER BY k;

-- name: json_each_text ordered
SELECT key, value FROM jsonb_each_text('{"x": 1, "y": "two", "z": null}') ORDER BY key;

-- name: json_array_elements ordered
SELECT value FROM jsonb_array_elements('[1, "a", null, {"k": 2}]') WITH ORDINALITY AS t(value, n) ORDER BY n;

-- name: json_equality ordered
SELECT '{"a":1, "b":2}'::jsonb = '{"b":2,"a":1}'::jsonb, '[1,2]'::jsonb = '[2,1]'::jsonb;

-- name: json_concat_delete ordered
SELECT '{"a": 1}'::jsonb || '{"b": 2}'::jsonb, '{"a": 1, "b": 2}'::jsonb - 'a', '[1, 2, 3]'::jsonb - 1;

-- name: json_strip_pretty ordered
SELECT jsonb_strip_nulls('{"a": 1, "b": null}'), jsonb_pretty('{"a": [1]}');

-- name: json_group_by_tag ordered
SELECT js::jsonb ->> 'tag' AS tag, count(*) FROM types.all_types WHERE js LIKE '{"id"%' GROUP BY 1 ORDER BY 1;

-- name: arr_literal ordered
SELECT ARRAY[1, 2, 3], ARRAY['a', NULL, 'c'];

-- name: arr_text_literal_cast ordered
SELECT '{1,2,3}'::int[], '{a,"b c"}'::text[];

-- name: arr_empty_typed ordered
SELECT ARRAY[]::int[], array_length(ARRAY[]::int[], 1);

-- name: arr_subscript ordered
SELECT (ARRAY[10, 20, 30])[2], (ARRAY[10, 20, 30])[5], (ARRAY['x', 'y'])[1];

-- name: arr_slice ordered
SELECT (ARRAY[1, 2, 3, 4, 5])[2:3], (ARRAY[1, 2, 3])[:2], (ARRAY[1, 2, 3])[2:];

-- name: arr_length_functions ordered
SELECT array_length(ARRAY[1, 2, 3], 1), cardinality(ARRAY[1, 2]), array_upper(ARRAY[1, 2, 3], 1), array_lower(ARRAY[5], 1);

-- name: arr_append_prepend_cat ordered
SELECT array_append(ARRAY[1, 2], 3), array_prepend(0, ARRAY[1]), array_cat(ARRAY[1], ARRAY[2, 3]), ARRAY[1] || ARRAY[2], ARRAY[1] || 2;

-- name: arr_position_remove ordered
SELECT array_position(ARRAY['a', 'b', 'c'], 'b'), array_remove(ARRAY[1, 2, 1, 3], 1), array_replace(ARRAY[1, 2, 1], 1, 9);

-- name: arr_contains ordered
SELECT ARRAY[1, 2, 3] @> ARRAY[2], ARRAY[1] <@ ARRAY[1, 2], ARRAY[1, 2] && ARRAY[2, 5], ARRAY[1, 2] = ARRAY[1, 2];

-- name: arr_unnest ordered
SELECT unnest(ARRAY[3, 1, 2]) AS x ORDER BY x;

-- name: arr_unnest_from ordered
SELECT x, n FROM unnest(ARRAY['a', 'b', 'c']) WITH ORDINALITY AS t(x, n) ORDER BY n;

-- name: arr_any_column ordered
SELECT id FROM types.all_types WHERE grp = ANY (ARRAY[0, 3]) ORDER BY id;

-- name: arr_array_to_string ordered
SELECT array_to_string(ARRAY[1, 2, 3], ','), array_to_string(ARRAY['a', NULL], ',');

-- name: arr_agg_then_subscript ordered
SELECT (array_agg(n_name ORDER BY n_name))[1] FROM nation;

-- name: arr_text_output_quoting ordered
SELECT ARRAY['a b', 'c,d', '', NULL, 'e"f', 'NULL'];

-- name: arr_compare_order ordered
SELECT a FROM (VALUES (ARRAY[1, 2]), (ARRAY[1]), (ARRAY[0, 5]), (ARRAY[1, 2, 0])) t(a) ORDER BY a;

-- name: arr_generate_series ordered
SELECT x FROM generate_series(1, 10, 3) x ORDER BY x;

-- name: arr_generate_series_dates ordered
SELECT d::date FROM generate_series(DATE '2024-01-30', DATE '2024-02-02', INTERVAL '1 day') d ORDER BY d;

-- name: arr_string_to_array_unnest ordered
SELECT count(*) FROM unnest(string_to_array('a,b,c,d', ',')) x;

-- name: arr_as_text ordered
SELECT ARRAY[1, 2]::text, ARRAY[true, false]::text, concat(ARRAY['a b', NULL, '', 'null', 'q"\'], 'x'),
       format('%s %L', ARRAY[1, 2], ARRAY['x']), quote_literal(ARRAY[3]), ARRAY['\x01'::bytea]::text,
       ARRAY[date '2024-01-02', NULL]::text, ARRAY[1.5::float8]::varchar(3), (NULL::int[])::text;

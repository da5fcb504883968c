-- String functions and pattern matching: LIKE, ILIKE, SIMILAR TO, POSIX
-- regular expressions, over literals, TPC-H text and all_types' unicode,
-- empty and quoted values.

-- name: str_like_prefix ordered
SELECT p_name FROM part WHERE p_name LIKE 'forest%' ORDER BY 1 LIMIT 5;

-- name: str_like_infix_count ordered
SELECT count(*) FROM part WHERE p_name LIKE '%green%';

-- name: str_like_underscore ordered
SELECT n_name FROM nation WHERE n_name LIKE '_R%' ORDER BY 1;

-- name: str_not_like ordered
SELECT count(*) FROM orders WHERE o_comment NOT LIKE '%special%requests%';

-- name: str_like_escape ordered
SELECT id, t FROM types.all_types WHERE t LIKE '%\_%' ORDER BY id;

-- name: str_like_escape_clause ordered
SELECT id FROM types.all_types WHERE t LIKE '100#%' ESCAPE '#' ORDER BY id;

-- name: str_like_percent_literal ordered
SELECT id FROM types.all_types WHERE t LIKE '%\%%' ORDER BY id;

-- name: str_like_empty ordered
SELECT id FROM types.all_types WHERE t LIKE '' ORDER BY id;

-- name: str_like_unicode ordered
SELECT id FROM types.all_types WHERE t LIKE '%☃%' OR t LIKE 'Ñ_nd%' ORDER BY id;

-- name: str_like_case_sensitive ordered
SELECT id FROM types.all_types WHERE t LIKE 'a%' ORDER BY id;

-- name: str_ilike ordered
SELECT id FROM types.all_types WHERE t ILIKE 'a%' ORDER BY id;

-- name: str_not_ilike ordered
SELECT count(*) FROM types.all_types WHERE t NOT ILIKE '%E%';

-- name: str_ilike_unicode ordered
SELECT 'ÄÖÜ' ILIKE 'äöü', 'Straße' ILIKE 'STRASSE';

-- name: str_like_operators ordered
SELECT 'abc' ~~ 'a%', 'abc' !~~ 'a%', 'ABC' ~~* 'a%', 'ABC' !~~* 'a%';

-- name: str_like_null ordered
SELECT NULL LIKE 'a', 'a' LIKE NULL;

-- name: str_similar_to ordered
SELECT 'abc' SIMILAR TO 'abc', 'abc' SIMILAR TO 'a', 'abc' SIMILAR TO '%(b|d)%', 'abc' SIMILAR TO '(a|b)c';

-- name: str_similar_to_column ordered
SELECT id FROM types.all_types WHERE t SIMILAR TO '(apple|cherry)%' ORDER BY id;

-- name: str_not_similar_to ordered
SELECT count(*) FROM types.all_types WHERE t NOT SIMILAR TO '[a-z]+';

-- name: str_regex_match ordered
SELECT id FROM types.all_types WHERE t ~ '^[A-Z]' ORDER BY id;

-- name: str_regex_case_insensitive ordered
SELECT id FROM types.all_types WHERE t ~* '^a.*e$' ORDER BY id;

-- name: str_regex_not_match ordered
SELECT count(*) FROM types.all_types WHERE t !~ 'a';

-- name: str_regex_not_match_ci ordered
SELECT count(*) FROM types.all_types WHERE t !~* 'A';

-- name: str_regex_tpch ordered
SELECT count(*) FROM customer WHERE c_phone ~ '^1[0-9]-';

-- name: str_regexp_replace ordered
SELECT regexp_replace('Hello World', 'o', '0'), regexp_replace('Hello World', 'o', '0', 'g'), regexp_replace('abc123def', '[0-9]+', '#');

-- name: str_regexp_replace_backref ordered
SELECT regexp_replace('john smith', '(\w+) (\w+)', '\2, \1');

-- name: str_regexp_match ordered
SELECT regexp_match('foobarbequebaz', 'bar(.*)(baz)'), regexp_match('abc', 'x');

-- name: str_length_funcs ordered
SELECT id, length(t), char_length(t), octet_length(t) FROM types.all_types WHERE id <= 12 ORDER BY id;

-- name: str_upper_lower ordered
SELECT id, upper(t), lower(t) FROM types.all_types WHERE id <= 14 ORDER BY id;

-- name: str_initcap ordered
SELECT initcap('hello wORLD foo-bar'), initcap(''), initcap('123abc');

-- name: str_substring ordered
SELECT substring('Hello World' FROM 7), substring('Hello World' FROM 1 FOR 5), substr('Hello', 2, 3), substr('Hello', 0, 2), substr('Hello', 10);

-- name: str_substring_unicode ordered
SELECT id, substr(t, 2, 3) FROM types.all_types WHERE id IN (3, 6, 9) ORDER BY id;

-- name: str_substring_regex ordered
SELECT substring('abc123def' FROM '[0-9]+'), substring('abc' FROM 'x');

-- name: str_position ordered
SELECT position('lo' IN 'Hello'), position('z' IN 'Hello'), strpos('Hello', 'l'), position('' IN 'abc');

-- name: str_trim ordered
SELECT '[' || trim('  a b  ') || ']', '[' || ltrim('  a  ') || ']', '[' || rtrim('  a  ') || ']', trim(BOTH 'x' FROM 'xxaxx'), trim(LEADING 'x' FROM 'xxaxx'), btrim('xyaxy', 'xy');

-- name: str_trim_column ordered
SELECT id, '[' || trim(t) || ']' FROM types.all_types WHERE id IN (2, 7, 8) ORDER BY id;

-- name: str_concat_operator ordered
SELECT 'a' || 'b' || 'c', 'x' || NULL, 'n=' || 42, 42 || '!';

-- name: str_concat_function ordered
SELECT concat('a', NULL, 'b', 1, 2.5), concat_ws('-', 'a', NULL, 'b'), concat_ws(NULL, 'a', 'b');

-- name: str_concat_columns ordered
SELECT id, concat(t, '|', vc), t || '|' || vc FROM types.all_types WHERE id <= 12 ORDER BY id;

-- name: str_replace ordered
SELECT replace('abcabc', 'b', 'XY'), replace('abc', '', 'x'), replace('aaa', 'a', '');

-- name: str_lpad_rpad ordered
SELECT lpad('7', 3, '0'), rpad('ab', 5, 'xy'), lpad('hello', 3), rpad('', 2, '*'), lpad('x', 4);

-- name: str_repeat_reverse ordered
SELECT repeat('ab', 3), repeat('x', 0), reverse('abc'), reverse('日本語');

-- name: str_left_right ordered
SELECT left('abcdef', 2), right('abcdef', 2), left('abc', -1), right('abc', -1);

-- name: str_split_part ordered
SELECT split_part('a,b,c', ',', 2), split_part('a,b,c', ',', 5), split_part('a,b,c', ',', -1);

-- name: str_translate ordered
SELECT translate('12345', '143', 'ax'), translate('hello', 'lo', 'LO');

-- name: str_ascii_chr ordered
SELECT ascii('A'), ascii(''), chr(65), chr(9731), ascii('é');

-- name: str_md5 ordered
SELECT md5(''), md5('abc');

-- name: str_md5_column ordered
SELECT id, md5(t) FROM types.all_types WHERE id <= 10 ORDER BY id;

-- name: str_to_hex ordered
SELECT to_hex(255), to_hex(-1), to_hex(0), to_hex(9223372036854775807);

-- name: str_starts_with ordered
SELECT starts_with('alphabet', 'alph'), starts_with('alphabet', 'bet');

-- name: str_quote ordered
SELECT quote_literal('O''Reilly'), quote_nullable(NULL);

-- name: str_quote_ident ordered
SELECT quote_ident('Mixed Case'), quote_ident('plain');

-- name: str_format ordered
SELECT format('%s is %s', 'x', 42), format('%I', 'A b'), format('%L', 'it''s');

-- name: str_format_width ordered
SELECT format('[%5s][%-5s]', 'a', 'b');

-- name: str_string_to_array ordered
SELECT string_to_array('a,b,,c', ','), string_to_array('a b', NULL), array_to_string(ARRAY['x', NULL, 'z'], '-', '?');

-- name: str_regexp_split ordered
SELECT regexp_split_to_array('a1b22c', '[0-9]+');

-- name: str_tpch_substring_group ordered
SELECT substring(c_phone FROM 1 FOR 2), count(*) FROM customer GROUP BY 1 ORDER BY 1 LIMIT 8;

-- name: str_tpch_upper_where ordered
SELECT count(*) FROM part WHERE upper(p_type) LIKE '%BRASS' AND lower(p_container) = 'sm box';

-- name: str_length_unicode_literal ordered
SELECT length('日本語'), octet_length('日本語'), length(''), upper('straße'), lower('ÀÉÎ');

-- name: str_compare_c_order ordered
SELECT x FROM (VALUES ('a'), ('B'), ('_'), ('Z'), ('é'), ('1'), (''), (' ')) t(x) ORDER BY x;

-- name: str_char_length_vc ordered
SELECT max(length(vc)), min(length(vc)) FROM types.all_types;

-- name: str_overlay ordered
SELECT overlay('Txxxxas' PLACING 'hom' FROM 2 FOR 4), overlay('abc' PLACING 'Z' FROM 2);

-- name: str_escape_string ordered
SELECT E'a\tb', E'line\nnext', length(E'\\'), 'back\slash';

-- name: str_dollar_quoted ordered
SELECT $$it's$$, $tag$a$b$tag$;

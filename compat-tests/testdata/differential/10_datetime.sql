-- Date and time: arithmetic with integers and intervals, extract and
-- date_part, date_trunc, age, make_date, to_char, comparisons across
-- date, timestamp and timestamptz.

-- name: dt_date_plus_int ordered
SELECT DATE '2024-02-28' + 1, DATE '2024-02-28' + 2, DATE '2023-02-28' + 1, 7 + DATE '2024-12-28';

-- name: dt_date_minus_date ordered
SELECT DATE '2024-03-01' - DATE '2024-02-01', DATE '2024-01-01' - DATE '2025-01-01';

-- name: dt_date_minus_int ordered
SELECT DATE '2024-03-01' - 1, DATE '2024-01-01' - 365;

-- name: dt_date_plus_interval ordered
SELECT DATE '2024-01-31' + INTERVAL '1 month', DATE '2024-01-31' + INTERVAL '1 day', DATE '2024-03-31' - INTERVAL '1 month';

-- name: dt_timestamp_plus_interval ordered
SELECT TIMESTAMP '2024-01-31 10:00' + INTERVAL '1 month 2 hours', TIMESTAMP '2024-12-31 23:59:59' + INTERVAL '1 second';

-- name: dt_timestamp_minus_timestamp ordered
SELECT TIMESTAMP '2024-03-01 12:00' - TIMESTAMP '2024-02-28 06:30', TIMESTAMP '2024-01-01' - TIMESTAMP '2024-01-02 01:00';

-- name: dt_interval_arith ordered
SELECT INTERVAL '1 day' * 3, INTERVAL '3 hours' / 2, INTERVAL '1 day' + INTERVAL '2 hours', -INTERVAL '5 minutes';

-- name: dt_extract_date_parts ordered
SELECT extract(year FROM DATE '2024-03-15'), extract(month FROM DATE '2024-03-15'), extract(day FROM DATE '2024-03-15'), extract(dow FROM DATE '2024-03-15'), extract(doy FROM DATE '2024-03-15'), extract(quarter FROM DATE '2024-03-15');

-- name: dt_extract_timestamp_parts ordered
SELECT extract(hour FROM TIMESTAMP '2024-03-15 10:20:30.5'), extract(minute FROM TIMESTAMP '2024-03-15 10:20:30.5'), extract(second FROM TIMESTAMP '2024-03-15 10:20:30.5');

-- name: dt_extract_epoch ordered
SELECT extract(epoch FROM TIMESTAMP '2024-01-01 00:00:00'), extract(epoch FROM TIMESTAMPTZ '1970-01-02 00:00:00+00'), extract(epoch FROM INTERVAL '1 day');

-- name: dt_extract_week_isodow ordered
SELECT extract(week FROM DATE '2024-01-01'), extract(isodow FROM DATE '2024-03-17'), extract(isoyear FROM DATE '2021-01-01'), extract(century FROM DATE '2024-01-01');

-- name: dt_date_part ordered
SELECT date_part('year', DATE '2024-03-15'), date_part('month', TIMESTAMP '2024-03-15 10:00'), date_part('day', INTERVAL '40 days');

-- name: dt_extract_columns ordered
SELECT id, extract(year FROM d), extract(month FROM ts), extract(hour FROM tstz) FROM types.all_types WHERE id <= 14 ORDER BY id;

-- name: dt_date_trunc ordered
SELECT date_trunc('month', TIMESTAMP '2024-03-15 10:20:30'), date_trunc('year', TIMESTAMP '2024-03-15 10:20:30'), date_trunc('hour', TIMESTAMP '2024-03-15 10:20:30'), date_trunc('week', TIMESTAMP '2024-03-15 10:20:30');

-- name: dt_date_trunc_date ordered
SELECT date_trunc('month', DATE '2024-03-15'), date_trunc('quarter', DATE '2024-08-15');

-- name: dt_date_trunc_timestamptz ordered
SELECT date_trunc('day', TIMESTAMPTZ '2024-03-15 10:20:30+00'), date_trunc('minute', TIMESTAMPTZ '2024-03-15 10:20:30.7+00');

-- name: dt_date_trunc_columns ordered
SELECT id, date_trunc('month', ts), date_trunc('day', tstz) FROM types.all_types WHERE id <= 14 ORDER BY id;

-- name: dt_age ordered
SELECT age(TIMESTAMP '2024-03-15', TIMESTAMP '2020-01-20'), age(DATE '2024-03-15', DATE '2024-03-01');

-- name: dt_make_date ordered
SELECT make_date(2024, 2, 29), make_timestamp(2024, 2, 29, 12, 30, 15.5);

-- name: dt_make_interval_named ordered
SELECT make_interval(days => 3, hours => 4);

-- name: dt_to_char ordered
SELECT to_char(DATE '2024-03-05', 'YYYY-MM-DD'), to_char(TIMESTAMP '2024-03-05 14:07:09', 'DD/MM/YYYY HH24:MI:SS'), to_char(TIMESTAMP '2024-03-05 14:07:09', 'Mon DD, YYYY HH12 AM');

-- name: dt_to_char_number ordered
SELECT to_char(1234.5, '9999.99'), to_char(42, '000'), to_char(-5, 'S999');

-- name: dt_to_date_to_timestamp ordered
SELECT to_date('05 Mar 2024', 'DD Mon YYYY'), to_timestamp('2024-03-05 14:07', 'YYYY-MM-DD HH24:MI'), to_timestamp(0);

-- name: dt_compare_date_timestamp ordered
SELECT DATE '2024-01-01' = TIMESTAMP '2024-01-01 00:00', DATE '2024-01-01' < TIMESTAMP '2024-01-01 00:00:01', TIMESTAMP '2024-01-01' = TIMESTAMPTZ '2024-01-01 00:00+00';

-- name: dt_where_date_range ordered
SELECT count(*) FROM orders WHERE o_orderdate >= DATE '1994-01-01' AND o_orderdate < DATE '1994-01-01' + INTERVAL '1 year';

-- name: dt_where_date_text_literal ordered
SELECT count(*) FROM orders WHERE o_orderdate < '1993-01-01';

-- name: dt_date_diff_tpch ordered
SELECT l_shipmode, avg(l_receiptdate - l_shipdate), max(l_receiptdate - l_commitdate) FROM lineitem GROUP BY 1 ORDER BY 1;

-- name: dt_group_by_month ordered
SELECT extract(month FROM o_orderdate) AS m, count(*) FROM orders WHERE extract(year FROM o_orderdate) = 1996 GROUP BY 1 ORDER BY 1;

-- name: dt_columns_plus_interval ordered
SELECT id, d + 30, ts + INTERVAL '1 day 1 hour', tstz - INTERVAL '30 minutes' FROM types.all_types WHERE id BETWEEN 10 AND 16 ORDER BY id;

-- name: dt_timestamp_minus_columns ordered
SELECT id, ts - TIMESTAMP '2021-01-01', d - DATE '2020-01-01' FROM types.all_types WHERE id BETWEEN 10 AND 20 ORDER BY id;

-- name: dt_timestamp_extremes_text ordered
SELECT id, ts, tstz FROM types.all_types WHERE id IN (2, 3, 4, 8, 9) ORDER BY id;

-- name: dt_infinity_dates ordered
SELECT 'infinity'::date > DATE '9999-12-31', '-infinity'::timestamp < TIMESTAMP '0001-01-01';

-- name: dt_interval_output ordered
SELECT INTERVAL '1 year 2 months 3 days 04:05:06.789', INTERVAL '-1 hours', INTERVAL '36 hours', INTERVAL '0';

-- name: dt_justify ordered
SELECT justify_hours(INTERVAL '36 hours'), justify_days(INTERVAL '45 days'), justify_interval(INTERVAL '1 month -1 hour');

-- name: dt_overlaps ordered
SELECT (DATE '2024-01-01', DATE '2024-02-01') OVERLAPS (DATE '2024-01-15', DATE '2024-03-01');

-- name: dt_current_date_type ordered
SELECT current_date - current_date, current_date <= now()::date + 1;

-- name: dt_leap_year ordered
SELECT DATE '2024-02-29' + INTERVAL '1 year', DATE '2023-03-01' - 1, DATE '2000-02-28' + 1, DATE '1900-02-28' + 1;

-- name: dt_extract_from_column_group ordered
SELECT extract(dow FROM l_shipdate) AS dow, count(*) FROM lineitem GROUP BY 1 ORDER BY 1;

-- name: dt_between_timestamps ordered
SELECT id FROM types.all_types WHERE ts BETWEEN TIMESTAMP '2021-04-01' AND TIMESTAMP '2021-06-01' ORDER BY id;

-- name: dt_timestamptz_at_time_zone ordered
SELECT TIMESTAMPTZ '2024-03-15 10:00:00+00' AT TIME ZONE 'America/New_York', TIMESTAMP '2024-03-15 10:00:00' AT TIME ZONE 'Europe/Paris';

-- name: dt_epoch_roundtrip ordered
SELECT to_timestamp(extract(epoch FROM TIMESTAMPTZ '2024-03-15 10:00:00+00'));

-- Date and timestamp input in every form PostgreSQL's datetime parser
-- reads with DateStyle ISO, MDY; BC years in and out.

-- name: dt_input_date_forms ordered
SELECT '1999-01-08'::date, 'January 8, 1999'::date, 'January 8 1999'::date, '1/8/1999'::date, '1/18/1999'::date, '01/02/03'::date, '1999-Jan-08'::date, 'Jan-08-1999'::date, '08-Jan-1999'::date;

-- name: dt_input_date_forms_short ordered
SELECT '08-Jan-99'::date, 'Jan-08-99'::date, '19990108'::date, '990108'::date, '1999.008'::date, 'J2451187'::date, 'Fri Jan 08 1999'::date, '8 January 1999'::date;

-- name: dt_input_date_bc ordered
SELECT 'January 8, 99 BC'::date, '0044-03-15 BC'::date, '4714-11-24 BC'::date, '0044-03-15 BC'::date + 1;

-- name: dt_input_date_specials ordered
SELECT 'epoch'::date, 'infinity'::date, '-infinity'::date, '2000-01-01 24:00:00'::date;

-- name: dt_input_date_out_of_range error
SELECT '4714-11-23 BC'::date;

-- name: dt_input_date_field_range error
SELECT '99-Jan-08'::date;

-- name: dt_input_timestamp_forms ordered
SELECT '2000-01-01 24:00:00'::timestamp, 'January 8, 1999 04:05 PM'::timestamp, 'Fri Jan 08 04:05:06 1999'::timestamp, '19990108 040506'::timestamp, '1999-01-08T04:05:06Z'::timestamp, '1999-01-08 04:05:06 BC'::timestamp;

-- name: dt_input_timestamptz_zones ordered
SELECT '1999-01-08 04:05:06+02'::timestamptz, '1999-01-08 04:05:06 -07:00'::timestamptz, '1999-01-08 04:05:06 America/New_York'::timestamptz, '0044-03-15 BC'::timestamptz;

-- name: dt_input_time_allballs ordered
SELECT 'allballs'::time, '1999-01-08 allballs'::timestamp;

-- name: dt_input_timestamp_past_midnight error
SELECT '2000-01-01 24:00:01'::timestamp;

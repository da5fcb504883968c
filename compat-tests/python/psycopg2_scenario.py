"""A psycopg2 session against SQE, the way a Python application meets it.

Each step records either the values psycopg2 decoded (with their Python
types, since what each PostgreSQL type becomes is the point) or the error it
met: its SQLSTATE, message and the transaction status afterwards. The summary
is printed as one JSON document on stdout; the Go test compares it step by
step with what PostgreSQL gives.

Connection details come from SQE_COMPAT_HOST, SQE_COMPAT_PORT,
SQE_COMPAT_USER, SQE_COMPAT_DATABASE and SQE_COMPAT_TOKEN (the password).
psycopg2 interpolates parameters on the client, so SQE sees plain SQL text
over the simple query protocol, and it opens a transaction (BEGIN) before
the first statement unless autocommit is on.
"""

import datetime
import decimal
import json
import os
import sys

import psycopg2
import psycopg2.extensions


def connect(sslmode, **extra):
    return psycopg2.connect(
        host=os.environ["SQE_COMPAT_HOST"],
        port=os.environ["SQE_COMPAT_PORT"],
        user=os.environ["SQE_COMPAT_USER"],
        dbname=os.environ["SQE_COMPAT_DATABASE"],
        password=os.environ["SQE_COMPAT_TOKEN"],
        sslmode=sslmode,
        connect_timeout=10,
        application_name="sqe-compat-psycopg2",
        **extra,
    )


def describe(value):
    """A decoded value as its Python type name and a printable form."""
    if value is None:
        return {"type": "NoneType"}
    if isinstance(value, (bool, int, float, str)):
        return {"type": type(value).__name__, "value": value}
    return {"type": type(value).__name__, "value": str(value)}


TX_STATUS = {
    psycopg2.extensions.TRANSACTION_STATUS_IDLE: "idle",
    psycopg2.extensions.TRANSACTION_STATUS_ACTIVE: "active",
    psycopg2.extensions.TRANSACTION_STATUS_INTRANS: "intrans",
    psycopg2.extensions.TRANSACTION_STATUS_INERROR: "inerror",
    psycopg2.extensions.TRANSACTION_STATUS_UNKNOWN: "unknown",
}


def tx_status(conn):
    return TX_STATUS.get(conn.info.transaction_status, "?")


def error_summary(conn, err):
    out = {"class": type(err).__name__, "message": str(err).strip()}
    if isinstance(err, psycopg2.Error):
        out["pgcode"] = err.pgcode
        if err.diag is not None and err.diag.statement_position is not None:
            out["position"] = err.diag.statement_position
    out["transaction"] = tx_status(conn)
    return out


def rows(cur):
    return [[describe(v) for v in row] for row in cur.fetchall()]


def step_session(conn):
    with conn.cursor() as cur:
        cur.execute("SELECT current_user, current_database()")
        return {"row": list(cur.fetchone()), "ssl_in_use": conn.info.ssl_in_use}


def step_fetchall_types(conn):
    with conn.cursor() as cur:
        cur.execute("SELECT id, region, amount, order_date FROM acdemo.orders ORDER BY id")
        return {
            "columns": [[d.name, d.type_code] for d in cur.description],
            "rows": rows(cur),
            "rowcount": cur.rowcount,
        }


def step_scalar_types(conn):
    with conn.cursor() as cur:
        cur.execute(
            "SELECT 1::int2, 2::int4, 3::int8, 2.25::float8, true, 'x'::text, 12.34, "
            "'2024-01-15'::date, '2024-01-15 10:20:30'::timestamp, NULL::text"
        )
        return rows(cur)


def step_timestamptz(conn):
    with conn.cursor() as cur:
        cur.execute("SELECT '2024-01-15 10:20:30+00'::timestamptz")
        (value,) = cur.fetchone()
        return {"type": type(value).__name__, "utc": value.astimezone(datetime.timezone.utc).isoformat()}


def step_positional_parameters(conn):
    with conn.cursor() as cur:
        cur.execute(
            "SELECT id, region FROM acdemo.orders WHERE region = %s AND amount > %s ORDER BY id",
            ("EU", decimal.Decimal("100")),
        )
        return rows(cur)


def step_named_parameters(conn):
    with conn.cursor() as cur:
        cur.execute(
            "SELECT %(quote)s AS q, %(day)s AS d, %(none)s IS NULL AS n, %(num)s + 1 AS i",
            {"quote": "it's", "day": datetime.date(2024, 2, 3), "none": None, "num": 41},
        )
        return {"query": cur.query.decode(), "row": [describe(v) for v in cur.fetchone()]}


def step_transaction(conn):
    # psycopg2 sent BEGIN before the first statement of this connection.
    before = tx_status(conn)
    conn.commit()
    after_commit = tx_status(conn)
    with conn.cursor() as cur:
        cur.execute("SELECT count(*) FROM acdemo.orders")
        count = cur.fetchone()[0]
    during = tx_status(conn)
    conn.rollback()
    return {
        "before_commit": before,
        "after_commit": after_commit,
        "count": count,
        "after_select": during,
        "after_rollback": tx_status(conn),
    }


def step_server_side_cursor(conn):
    # A named cursor is DECLARE ... CURSOR WITHOUT HOLD FOR ... then FETCH.
    with conn.cursor(name="orders_cursor") as cur:
        cur.execute("SELECT id FROM acdemo.orders ORDER BY id")
        first = cur.fetchmany(2)
        rest = cur.fetchall()
    return {"first": [list(r) for r in first], "rest": [list(r) for r in rest]}


def step_error(conn):
    with conn.cursor() as cur:
        cur.execute("SELECT nope FROM acdemo.orders")
        return cur.fetchall()


def step_statement_in_failed_transaction(conn):
    # The step before left the transaction failed: PostgreSQL refuses
    # everything until ROLLBACK.
    with conn.cursor() as cur:
        cur.execute("SELECT 1")
        return cur.fetchall()


def step_reuse_after_rollback(conn):
    with conn.cursor() as cur:
        cur.execute("SELECT 1, 'again'")
        return {"row": list(cur.fetchone()), "transaction": tx_status(conn)}


def step_autocommit(conn):
    conn.rollback()
    conn.autocommit = True
    try:
        with conn.cursor() as cur:
            cur.execute("SELECT 2")
            return {"row": list(cur.fetchone()), "transaction": tx_status(conn)}
    finally:
        conn.autocommit = False


def step_startup_options(conn):
    # The connection's options set search_path and statement_timeout; a
    # backslash keeps the space in application_name's value.
    with conn.cursor() as cur:
        cur.execute(
            "SELECT current_schema(), current_setting('statement_timeout'), "
            "current_setting('application_name'), count(*) FROM orders"
        )
        return list(cur.fetchone())


# Each step: its name, the function, and whether the runner rolls back
# after it (once the step's outcome, transaction status included, is
# recorded).
FULL_STEPS = [
    ("session", step_session, False),
    ("fetchall types", step_fetchall_types, False),
    ("scalar types", step_scalar_types, False),
    ("timestamptz", step_timestamptz, False),
    ("positional parameters", step_positional_parameters, False),
    ("named parameters", step_named_parameters, False),
    ("transaction", step_transaction, False),
    ("server-side cursor", step_server_side_cursor, True),
    ("error", step_error, False),
    ("statement in failed transaction", step_statement_in_failed_transaction, True),
    ("reuse after rollback", step_reuse_after_rollback, False),
    ("autocommit", step_autocommit, False),
]


def run_connection(name, sslmode, steps, **extra):
    result = {"connection": name}
    try:
        conn = connect(sslmode, **extra)
    except psycopg2.Error as err:
        result["connectError"] = {"class": type(err).__name__, "message": str(err).strip()}
        return result
    result["steps"] = []
    try:
        for step, fn, rollback_after in steps:
            try:
                result["steps"].append({"step": step, "ok": True, "value": fn(conn)})
            except psycopg2.Error as err:
                result["steps"].append({"step": step, "ok": False, "error": error_summary(conn, err)})
                if conn.closed:
                    break
            if rollback_after:
                conn.rollback()
    finally:
        conn.close()
    return result


def main():
    summary = [
        run_connection("sslmode=require", "require", FULL_STEPS),
        run_connection("sslmode=disable", "disable", FULL_STEPS[:2]),
        run_connection(
            "options",
            "disable",
            [("startup options", step_startup_options, False)],
            options=r"-c search_path=acdemo -c statement_timeout=5s",
        ),
        run_connection("options refused", "disable", [], options="-c no_such_setting=1"),
    ]
    json.dump(summary, sys.stdout, indent=1, default=str)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

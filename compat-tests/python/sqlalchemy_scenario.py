"""SQLAlchemy (over psycopg2) against SQE, the way an ORM or BI tool meets it.

The engine's first connection runs the dialect's own start-up queries
(version, current schema, standard_conforming_strings, ...); then come a Core
select with a bound parameter, a text() query, and the Inspector calls that
introspection tools make, which SQLAlchemy answers from pg_catalog. Each call
runs in its own try block, so one missing catalog feature does not hide the
others. The summary, one JSON document on stdout, names the SQLAlchemy
version, and for every step its value or the error's class and text; the Go
test compares it step by step with what PostgreSQL gives.

Connection details come from SQE_COMPAT_HOST, SQE_COMPAT_PORT,
SQE_COMPAT_USER, SQE_COMPAT_DATABASE and SQE_COMPAT_TOKEN (the password,
passed through connect_args so it never appears in the URL).
"""

import json
import os
import sys

import sqlalchemy
from sqlalchemy import Column, Date, Integer, MetaData, Numeric, String, Table, create_engine, inspect, select, text


def make_engine():
    url = sqlalchemy.engine.URL.create(
        "postgresql+psycopg2",
        username=os.environ["SQE_COMPAT_USER"],
        host=os.environ["SQE_COMPAT_HOST"],
        port=int(os.environ["SQE_COMPAT_PORT"]),
        database=os.environ["SQE_COMPAT_DATABASE"],
    )
    return create_engine(
        url,
        connect_args={
            "password": os.environ["SQE_COMPAT_TOKEN"],
            "sslmode": "require",
            "connect_timeout": 10,
            "application_name": "sqe-compat-sqlalchemy",
        },
        poolclass=sqlalchemy.pool.NullPool,
        future=True,
    )


def describe(value):
    if value is None:
        return {"type": "NoneType"}
    if isinstance(value, (bool, int, float, str)):
        return {"type": type(value).__name__, "value": value}
    return {"type": type(value).__name__, "value": str(value)}


def error_summary(err):
    out = {"class": type(err).__name__}
    orig = getattr(err, "orig", None)
    if orig is not None:
        # A DBAPI error: keep the driver's message and SQLSTATE, not
        # SQLAlchemy's wrapper text (which adds a version-specific link).
        out["pgcode"] = getattr(orig, "pgcode", None)
        out["message"] = str(orig).strip()
        statement = getattr(err, "statement", None)
        if statement is not None:
            out["statement"] = " ".join(statement.split())
    else:
        out["message"] = str(err).strip()
    return out


# The orders table as an application declares it.
metadata = MetaData()
orders = Table(
    "orders",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("region", String),
    Column("ssn", String),
    Column("amount", Numeric(12, 2)),
    Column("order_date", Date),
    schema="acdemo",
)

# The same table without a schema, found through search_path; SQLAlchemy
# then qualifies columns with the table name only (orders.id).
unqualified_orders = Table(
    "orders",
    MetaData(),
    Column("id", Integer, primary_key=True),
    Column("region", String),
    Column("amount", Numeric(12, 2)),
)


def step_connect(engine):
    with engine.connect() as conn:
        dialect = conn.dialect
        return {
            "server_version_info": list(dialect.server_version_info[:1]),
            "default_schema_name": dialect.default_schema_name,
            "one": conn.execute(text("SELECT 1")).scalar(),
        }


def step_core_select(engine):
    stmt = select(orders.c.id, orders.c.amount, orders.c.order_date).where(orders.c.region == "EU").order_by(orders.c.id)
    with engine.connect() as conn:
        return [[describe(v) for v in row] for row in conn.execute(stmt)]


def step_core_select_bound(engine):
    stmt = select(orders.c.region).where(orders.c.id == sqlalchemy.bindparam("wanted"))
    with engine.connect() as conn:
        return [conn.execute(stmt, {"wanted": 2}).scalar_one(), conn.execute(stmt, {"wanted": 3}).scalar_one()]


def step_core_select_search_path(engine):
    stmt = (
        select(unqualified_orders.c.id, unqualified_orders.c.amount)
        .where(unqualified_orders.c.amount < sqlalchemy.bindparam("below"))
        .order_by(unqualified_orders.c.id.desc())
    )
    with engine.connect() as conn:
        conn.execute(text("SET search_path = acdemo"))
        return [[describe(v) for v in row] for row in conn.execute(stmt, {"below": 200})]


def step_text_query(engine):
    with engine.connect() as conn:
        result = conn.execute(
            text("SELECT id, ssn FROM acdemo.orders WHERE amount > :min ORDER BY id"), {"min": 100}
        )
        return {"keys": list(result.keys()), "rows": [list(r) for r in result]}


def step_text_error(engine):
    with engine.connect() as conn:
        return conn.execute(text("SELECT nope FROM acdemo.orders")).all()


def step_schema_names(engine):
    return sorted(inspect(engine).get_schema_names())


def step_table_names(engine):
    return sorted(inspect(engine).get_table_names(schema="acdemo"))


def step_columns(engine):
    columns = inspect(engine).get_columns("orders", schema="acdemo")
    return [
        {"name": c["name"], "type": str(c["type"]), "nullable": c["nullable"], "default": c["default"]}
        for c in columns
    ]


def step_pk_constraint(engine):
    return inspect(engine).get_pk_constraint("orders", schema="acdemo")


def step_has_table(engine):
    with engine.connect() as conn:
        return [
            engine.dialect.has_table(conn, "orders", schema="acdemo"),
            engine.dialect.has_table(conn, "missing", schema="acdemo"),
        ]


STEPS = [
    ("connect", step_connect),
    ("core select", step_core_select),
    ("core select bound parameter", step_core_select_bound),
    ("core select search_path", step_core_select_search_path),
    ("text query", step_text_query),
    ("text query error", step_text_error),
    ("inspector get_schema_names", step_schema_names),
    ("inspector get_table_names", step_table_names),
    ("inspector get_columns", step_columns),
    ("inspector get_pk_constraint", step_pk_constraint),
    ("dialect has_table", step_has_table),
]


def main():
    engine = make_engine()
    summary = {"sqlalchemy": sqlalchemy.__version__, "steps": []}
    try:
        for name, fn in STEPS:
            try:
                summary["steps"].append({"step": name, "ok": True, "value": fn(engine)})
            except Exception as err:  # every failure is part of the report
                summary["steps"].append({"step": name, "ok": False, "error": error_summary(err)})
    finally:
        engine.dispose()
    json.dump(summary, sys.stdout, indent=1, default=str)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

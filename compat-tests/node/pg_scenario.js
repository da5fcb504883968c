'use strict';

// A node-postgres session against SQE, the way a Node.js application meets
// it. Each step records either the values it decoded (with their JavaScript
// types, since what pg turns each PostgreSQL type into is the point) or the
// server error it got. The whole summary is printed as one JSON document on
// stdout; the Go test compares it step by step with what PostgreSQL gives.
//
// Connection details come from the environment: SQE_COMPAT_HOST,
// SQE_COMPAT_PORT, SQE_COMPAT_USER, SQE_COMPAT_DATABASE and
// SQE_COMPAT_TOKEN (the password). Run it with TZ=UTC so dates and
// timestamps, which pg builds in local time, print the same everywhere.

const { Client } = require('pg');

function required(name) {
  const value = process.env[name];
  if (!value) {
    throw new Error(`environment variable ${name} is not set`);
  }
  return value;
}

const connection = {
  host: required('SQE_COMPAT_HOST'),
  port: Number(required('SQE_COMPAT_PORT')),
  user: required('SQE_COMPAT_USER'),
  database: required('SQE_COMPAT_DATABASE'),
  password: required('SQE_COMPAT_TOKEN'),
  application_name: 'sqe-compat-node',
  connectionTimeoutMillis: 10000,
};

// describe turns one decoded value into something JSON keeps faithfully:
// its JavaScript type next to a printable form.
function describe(value) {
  if (value === null) {
    return { type: 'null' };
  }
  if (value instanceof Date) {
    return { type: 'Date', value: value.toISOString() };
  }
  if (Buffer.isBuffer(value)) {
    return { type: 'Buffer', value: value.toString('hex') };
  }
  return { type: typeof value, value };
}

// errorSummary keeps the parts of a server error a client relies on.
function errorSummary(err) {
  const out = { code: err.code || null, message: err.message };
  if (err.position !== undefined) {
    out.position = err.position;
  }
  if (err.severity !== undefined) {
    out.severity = err.severity;
  }
  return out;
}

// A step of the scenario: a name and a function returning what it saw.
async function runSteps(client, steps, summary) {
  for (const [name, fn] of steps) {
    try {
      summary.push({ step: name, ok: true, value: await fn(client) });
    } catch (err) {
      summary.push({ step: name, ok: false, error: errorSummary(err) });
    }
  }
}

const ordersSQL = 'SELECT id, region, amount, order_date FROM acdemo.orders ORDER BY id';

const steps = [
  ['session', async (c) => {
    const r = await c.query('SELECT current_user AS usr, current_database() AS db');
    return r.rows;
  }],
  ['plain query objects', async (c) => {
    const r = await c.query(ordersSQL);
    return {
      command: r.command,
      rowCount: r.rowCount,
      fields: r.fields.map((f) => [f.name, f.dataTypeID]),
      rows: r.rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, describe(v)]))),
    };
  }],
  ['row mode array', async (c) => {
    const r = await c.query({ text: 'SELECT id, ssn FROM acdemo.orders ORDER BY id LIMIT 2', rowMode: 'array' });
    return r.rows;
  }],
  ['types text', async (c) => {
    const r = await c.query({
      text: "SELECT 1::int2 AS i2, 2::int4 AS i4, 3::int8 AS i8, 1.5::float4 AS f4, 2.25::float8 AS f8, " +
        "true AS b, 'x'::text AS t, 12.34 AS n, '2024-01-15'::date AS d, " +
        "'2024-01-15 10:20:30'::timestamp AS ts, '2024-01-15 10:20:30+00'::timestamptz AS tstz, NULL::text AS nul",
      rowMode: 'array',
    });
    return r.rows[0].map(describe);
  }],
  ['parameterized', async (c) => {
    const r = await c.query('SELECT id, region FROM acdemo.orders WHERE region = $1 AND amount > $2 ORDER BY id',
      ['EU', 100]);
    return { fields: r.fields.map((f) => [f.name, f.dataTypeID]), rows: r.rows };
  }],
  ['numeric casts', async (c) => {
    // PostgreSQL keeps the scale of the input when numeric has no typmod.
    const r = await c.query({
      text: "SELECT 12.34::numeric AS lit, '1.25'::numeric AS txt, amount::numeric AS col FROM acdemo.orders WHERE id = 1",
      rowMode: 'array',
    });
    return r.rows[0].map(describe);
  }],
  ['parameter types', async (c) => {
    const r = await c.query({
      text: 'SELECT $1::int8 + 1 AS plus, $2::text || \'!\' AS bang, $3::text IS NULL AS isnull, ' +
        '$4::date AS d, $5::bool AS flag, $6::float8 / 4 AS quarter',
      values: ['41', 'hi', null, '2024-02-03', true, 3],
      rowMode: 'array',
    });
    return r.rows[0].map(describe);
  }],
  ['numeric parameter', async (c) => {
    const r = await c.query({ text: 'SELECT $1::numeric * 2 AS twice', values: ['1.25'], rowMode: 'array' });
    return r.rows[0].map(describe);
  }],
  ['named statement', async (c) => {
    const q = (id) => ({ name: 'region_by_id', text: 'SELECT region FROM acdemo.orders WHERE id = $1', values: [id] });
    const first = await c.query(q(2));
    const second = await c.query(q(3));
    return [first.rows, second.rows];
  }],
  ['transaction', async (c) => {
    await c.query('BEGIN');
    const r = await c.query('SELECT count(*) AS n FROM acdemo.orders');
    await c.query('COMMIT');
    return r.rows;
  }],
  ['unknown column', async (c) => c.query('SELECT nope FROM acdemo.orders')],
  ['unknown table with parameter', async (c) => c.query('SELECT id FROM acdemo.missing WHERE id = $1', [1])],
  ['syntax error', async (c) => c.query('SELEC 1')],
  ['usable after errors', async (c) => {
    const r = await c.query('SELECT 1 AS one');
    return r.rows;
  }],
];

async function session(name, config, sessionSteps, summary) {
  const client = new Client(config);
  const result = { connection: name };
  try {
    await client.connect();
  } catch (err) {
    result.connectError = errorSummary(err);
    summary.push(result);
    return;
  }
  result.encrypted = Boolean(client.connection.stream.encrypted);
  result.steps = [];
  try {
    await runSteps(client, sessionSteps, result.steps);
  } finally {
    await client.end();
  }
  summary.push(result);
}

async function main() {
  const summary = [];
  // The full scenario over TLS (self-signed certificate, so no
  // verification), and a short one over plaintext, which SQE accepts on
  // loopback. Binary results are left out: pg 8 reads every DataRow field
  // as a UTF-8 string, so its binary mode cannot decode them faithfully.
  const tls = { ...connection, ssl: { rejectUnauthorized: false } };
  await session('tls', tls, steps, summary);
  await session('plaintext', { ...connection, ssl: false }, steps.slice(0, 2), summary);
  process.stdout.write(JSON.stringify(summary, null, 1) + '\n');
}

main().catch((err) => {
  process.stderr.write(`pg scenario failed: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});

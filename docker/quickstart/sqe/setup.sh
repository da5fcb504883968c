#!/bin/sh
# Loads spec/002's demo through SQE itself, as carol (an sqe_admin): the
# schema acdemo with the table orders, gate one's discovery grants
# (USAGE for analyst and engineer, SELECT on orders for engineer) and gate
# two's policies for engineer (mask ssn to its last four characters, only
# rows of region EU). Alice's SELECT is left for the walk-through in
# README.md. Every statement is idempotent.
# The token comes from Keycloak's OpenID Connect token endpoint (direct
# grant of the public client sqe), as recorded in
# cmd/sqe/testdata/quickstart/requests/sqe-setup.json; the tests replay
# this script against a real SQE (compat-tests/quickstart_demo_test.go).
# KEYCLOAK_URL, SQE_HOST, SQE_PORT and DEMO_SQL are for those tests;
# compose sets none of them.
set -eu
TOKEN=$(wget -qO- --post-data 'grant_type=password&client_id=sqe&username=carol&password=carol' \
  "${KEYCLOAK_URL:-http://keycloak:8080}/realms/sqe/protocol/openid-connect/token" \
  | sed -n 's/.*"access_token" *: *"\([^"]*\)".*/\1/p')
[ -n "$TOKEN" ] || { echo "no token for carol from Keycloak" >&2; exit 1; }
PGPASSWORD=$TOKEN psql -X -w \
  "host=${SQE_HOST:-sqe} port=${SQE_PORT:-5433} user=carol dbname=sales_wh sslmode=require" \
  -v ON_ERROR_STOP=1 -f "${DEMO_SQL:-/setup/demo.sql}"
echo "SQE demo loaded."

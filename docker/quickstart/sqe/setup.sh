#!/bin/sh
# Loads spec/002's demo through SQE itself, as carol (an sqe_admin): the
# schema acdemo with the table orders, gate one's discovery grants
# (USAGE for analyst and engineer, SELECT on orders for engineer) and gate
# two's policies for engineer (mask ssn to its last four characters, only
# rows of region EU). Alice's SELECT is left for the walk-through in
# README.md. Every statement is idempotent.
set -eu
TOKEN=$(wget -qO- --post-data 'grant_type=password&client_id=sqe&username=carol&password=carol' \
  http://keycloak:8080/realms/sqe/protocol/openid-connect/token \
  | sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p')
[ -n "$TOKEN" ] || { echo "no token for carol from Keycloak" >&2; exit 1; }
PGPASSWORD=$TOKEN psql "host=sqe port=5433 user=carol dbname=sales_wh sslmode=require" \
  -v ON_ERROR_STOP=1 -f /setup/demo.sql
echo "SQE demo loaded."

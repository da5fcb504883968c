#!/bin/bash
# Remote execution on Trino, walked through with the quickstart up
# (README.md, "Remote execution on Trino"). From the repository root:
#   docker/quickstart/remote-walkthrough.sh
# 1. bob (analyst, engineer) runs spec/002's example once here
#    (sqe.execution = 'local') and once on Trino ('remote'): both answers
#    are printed, and they must be the same rows, filtered and masked by
#    SQE before Trino sees the statement; the script fails if they differ.
# 2. carol (sqe_admin) asks EXPLAIN with 'remote': the plan names the
#    engine, and to an administrator the SQL sent to it.
# 3. Trino is not reachable from the host: compose publishes no port of
#    the services trino and trino-worker (docker compose ps shows none).
# Needs curl, psql and docker compose on the host. KEYCLOAK_URL, SQE_HOST,
# SQE_PORT and COMPOSE_FILE override where it looks.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
COMPOSE_FILE=${COMPOSE_FILE:-$HERE/compose.yaml}
KEYCLOAK_URL=${KEYCLOAK_URL:-http://localhost:8080}
SQE_HOST=${SQE_HOST:-127.0.0.1}
SQE_PORT=${SQE_PORT:-5433}
QUERY="SELECT id, region, ssn FROM acdemo.orders ORDER BY id"

# token USER: the user's access token from Keycloak (password = user
# name), as sqe/setup.sh gets carol's.
token() {
  local t
  t=$(curl -sS "$KEYCLOAK_URL/realms/sqe/protocol/openid-connect/token" \
    -d grant_type=password -d client_id=sqe -d username="$1" -d password="$1" \
    | sed -n 's/.*"access_token" *: *"\([^"]*\)".*/\1/p')
  if [ -z "$t" ]; then
    echo "no token for $1 from Keycloak at $KEYCLOAK_URL" >&2
    return 1
  fi
  printf '%s' "$t"
}

# sqe USER [psql arguments...]: psql as USER against SQE, stopping at the
# first error.
sqe() {
  local user=$1 t
  shift
  t=$(token "$user")
  PGPASSWORD=$t psql -X -w -q -v ON_ERROR_STOP=1 \
    "host=$SQE_HOST port=$SQE_PORT user=$user dbname=sales_wh sslmode=require" "$@"
}

# wait_healthy SERVICE: waits (up to five minutes) for compose to report
# the service healthy; Trino takes a while to start.
wait_healthy() {
  local health=""
  for _ in $(seq 60); do
    health=$(docker compose -f "$COMPOSE_FILE" ps --format '{{.Health}}' "$1" 2>/dev/null || true)
    [ "$health" = healthy ] && return 0
    sleep 5
  done
  echo "$1 is not healthy (${health:-not running}): see docker compose -f $COMPOSE_FILE logs $1" >&2
  return 1
}

echo "== Waiting for trino and trino-worker"
wait_healthy trino
wait_healthy trino-worker

echo
echo "== 1. bob: $QUERY"
echo "-- sqe.execution = 'local' (SQE runs the secured plan itself):"
sqe bob -c "SET sqe.execution = 'local'" -c "$QUERY"
local_rows=$(sqe bob -A -t -c "SET sqe.execution = 'local'" -c "$QUERY")
echo "-- sqe.execution = 'remote' (SQE sends the secured plan to Trino):"
sqe bob -c "SET sqe.execution = 'remote'" -c "$QUERY"
remote_rows=$(sqe bob -A -t -c "SET sqe.execution = 'remote'" -c "$QUERY")
if [ -z "$local_rows" ] || [ "$local_rows" != "$remote_rows" ]; then
  echo "FAIL: the answers differ (or are empty)" >&2
  diff <(printf '%s\n' "$local_rows") <(printf '%s\n' "$remote_rows") >&2 || true
  exit 1
fi
echo "OK: the same rows here and on Trino, filtered and masked by SQE:"
printf '%s\n' "$local_rows"

echo
echo "== 2. carol (sqe_admin): EXPLAIN with sqe.execution = 'remote'"
plan=$(sqe carol -c "SET sqe.execution = 'remote'" -c "EXPLAIN $QUERY")
printf '%s\n' "$plan"
case "$plan" in
  *"Remote on trino"*) echo "OK: the plan runs on Trino; SQL: is the statement sent, gates applied." ;;
  *)
    echo "FAIL: the plan does not run on the engine trino" >&2
    exit 1
    ;;
esac

echo
echo "== 3. Trino is not reachable from the host"
ports=$(docker compose -f "$COMPOSE_FILE" ps --format '{{.Service}}: {{.Ports}}' trino trino-worker)
printf '%s\n' "$ports"
if grep -q -- '->' <<<"$ports"; then
  echo "FAIL: a Trino port is published on the host; Trino reads every table as its own service identity" >&2
  exit 1
fi
echo "OK: compose publishes no Trino port (8080 is only exposed inside the compose network);"
echo "clients reach data through SQE, which sends Trino only statements secured by both gates."

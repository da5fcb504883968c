#!/bin/sh
# Creates the quickstart's Ranger state (spec/002's setting), idempotently:
#   - the service "polaris" (gate one: Polaris's Ranger authorizer enforces
#     it; SQE's GRANT / REVOKE / DENY write it), of the service definition
#     "polaris" that Ranger Admin 2.8.0 creates itself at start (from
#     apache/ranger agents-common/src/main/resources/service-defs/
#     ranger-servicedef-polaris.json). Nothing is registered here: the
#     setup stops if Ranger lacks that definition or an access type it
#     uses;
#   - the service "query" (hive model; gate two: SQE reads row filters and
#     masks from it, CREATE POLICY writes them) and its tag service "tags";
#   - the roles analyst (alice, bob, carol), engineer (bob, carol) and
#     sqe_admin (carol): role membership lives in Ranger;
#   - the administrators' policies on "polaris": Polaris's root (which sets
#     Polaris up) and the role sqe_admin manage everything, and the roles
#     analyst and engineer may list the catalog's namespaces (the wildcard
#     discovery policy, delegate admin on the discovery access types);
#   - the policies of the user trino, the Polaris principal the Trino
#     services read as (polaris/setup.sh): list the catalogs' namespaces,
#     and read every namespace and table of sales_wh, as SQE's GRANT
#     SELECT writes for one table (catalog namespace-list, namespace
#     namespace-properties-read, table table-data-read) plus table-list.
#     Trino enforces no user's gates: only SQE reaches it, with statements
#     already secured (README.md, "Remote execution on Trino"). Its
#     namespace and table policies name namespace "*", which SQE's GRANT
#     never writes, so the two never share a policy.
# Requests are Ranger's public REST API v2 (/service/public/v2/api), as
# recorded in cmd/sqe/testdata/quickstart/requests/ranger-setup-*.json.
# RANGER_URL and RANGER_PASSWORD_FILE are for the tests; compose sets
# neither.
set -eu
RANGER=${RANGER_URL:-http://ranger:6080}
PASSWORD=$(cat "${RANGER_PASSWORD_FILE:-/run/secrets/ranger_admin_password}")
AUTH="admin:$PASSWORD"
API=/service/public/v2/api
ANSWER=$(mktemp)
trap 'rm -f "$ANSWER"' EXIT

# request METHOD PATH [JSON]: prints the HTTP status, the body to $ANSWER.
request() {
  if [ $# -ge 3 ]; then
    curl -sS -u "$AUTH" -o "$ANSWER" -w '%{http_code}' -X "$1" \
      -H 'Content-Type: application/json' "$RANGER$2" -d "$3"
  else
    curl -sS -u "$AUTH" -o "$ANSWER" -w '%{http_code}' -X "$1" "$RANGER$2"
  fi
}

# fail WHAT STATUS: stops the setup with Ranger's answer.
fail() {
  echo "$1: HTTP $2 $(cat "$ANSWER")" >&2
  exit 1
}

# ensure NAME GET-PATH POST-PATH JSON: creates the object unless GET finds it.
ensure() {
  if [ "$(request GET "$2")" = 200 ]; then
    echo "$1: exists"
    return
  fi
  status=$(request POST "$3" "$4")
  case "$status" in
    2??) echo "$1: created" ;;
    *) fail "$1" "$status" ;;
  esac
}

# The access types of the policies below (see apply); Ranger's definition
# must declare each one, or it answers 400 for the policy.
ROOT_ACCESS="service-access-manage catalog-create catalog-list principal-create principal-list"
PRINCIPAL_ACCESS="principal-drop principal-metadata-full principal-properties-read principal-properties-write
  principal-credentials-reset principal-credentials-rotate"
CATALOG_ACCESS="catalog-content-manage catalog-metadata-full catalog-properties-read catalog-properties-write
  catalog-drop namespace-list namespace-create"
DISCOVERY_ACCESS="namespace-list"
TRINO_NAMESPACE_ACCESS="namespace-properties-read table-list"
TRINO_TABLE_ACCESS="table-data-read"

status=$(request GET "$API/servicedef/name/polaris")
[ "$status" = 200 ] || fail "service definition polaris (Ranger Admin 2.8.0 or later creates it at start)" "$status"
for at in $ROOT_ACCESS $PRINCIPAL_ACCESS $CATALOG_ACCESS $DISCOVERY_ACCESS $TRINO_NAMESPACE_ACCESS $TRINO_TABLE_ACCESS; do
  grep -q "\"name\" *: *\"$at\"" "$ANSWER" || {
    echo "service definition polaris: Ranger declares no access type $at" >&2
    exit 1
  }
done
echo "service definition polaris: present"

ensure "service tags" "$API/service/name/tags" "$API/service" \
  '{"name":"tags","type":"tag","isEnabled":true,"configs":{}}'
ensure "service query" "$API/service/name/query" "$API/service" \
  '{"name":"query","type":"hive","tagService":"tags","isEnabled":true,
    "configs":{"username":"admin","password":"unused","jdbc.driverClassName":"org.apache.hive.jdbc.HiveDriver","jdbc.url":"jdbc:hive2://unused:10000"}}'
ensure "service polaris" "$API/service/name/polaris" "$API/service" \
  '{"name":"polaris","type":"polaris","isEnabled":true,"configs":{"username":"admin","password":"unused"}}'

# Roles; createNonExistUserGroup adds the users to Ranger as they are named.
role() { # name user...
  name=$1
  shift
  members=""
  for u in "$@"; do
    members="$members${members:+,}{\"name\":\"$u\",\"isAdmin\":false}"
  done
  ensure "role $name" "$API/roles/name/$name" \
    "$API/roles?createNonExistUserGroup=true" \
    "{\"name\":\"$name\",\"users\":[$members]}"
}
role analyst alice bob carol
role engineer bob carol
role sqe_admin carol

# access "TYPE...": a JSON list of accesses.
access() {
  list=""
  for a in $1; do
    list="$list${list:+,}{\"type\":\"$a\",\"isAllowed\":true}"
  done
  echo "[$list]"
}

# apply NAME JSON: merges the policy into the one Ranger holds for the same
# resources (Ranger's own default policies of a new service among them;
# Ranger refuses a second policy on a resource), or creates it.
# createPrincipalsIfAbsent creates the user root, whom no role names.
apply() {
  status=$(request POST "$API/policy/apply?createPrincipalsIfAbsent=true" "$2")
  case "$status" in
    2??) echo "policy $1: applied" ;;
    *) fail "policy $1" "$status" ;;
  esac
}

apply quickstart-root \
  "{\"service\":\"polaris\",\"name\":\"quickstart-root\",\"isEnabled\":true,
    \"resources\":{\"root\":{\"values\":[\"*\"]}},
    \"policyItems\":[{\"users\":[\"root\"],\"roles\":[\"sqe_admin\"],\"delegateAdmin\":true,
      \"accesses\":$(access "$ROOT_ACCESS")}]}"

apply quickstart-principals \
  "{\"service\":\"polaris\",\"name\":\"quickstart-principals\",\"isEnabled\":true,
    \"resources\":{\"root\":{\"values\":[\"*\"]},\"principal\":{\"values\":[\"*\"]}},
    \"policyItems\":[{\"users\":[\"root\"],\"delegateAdmin\":true,
      \"accesses\":$(access "$PRINCIPAL_ACCESS")}]}"

apply quickstart-catalogs \
  "{\"service\":\"polaris\",\"name\":\"quickstart-catalogs\",\"isEnabled\":true,
    \"resources\":{\"root\":{\"values\":[\"*\"]},\"catalog\":{\"values\":[\"*\"]}},
    \"policyItems\":[
      {\"users\":[\"root\"],\"roles\":[\"sqe_admin\"],\"delegateAdmin\":true,
       \"accesses\":$(access "$CATALOG_ACCESS")},
      {\"roles\":[\"analyst\",\"engineer\"],\"delegateAdmin\":true,\"accesses\":$(access "$DISCOVERY_ACCESS")},
      {\"users\":[\"trino\"],\"accesses\":$(access "$DISCOVERY_ACCESS")}]}"

apply quickstart-trino-namespaces \
  "{\"service\":\"polaris\",\"name\":\"quickstart-trino-namespaces\",\"isEnabled\":true,
    \"resources\":{\"root\":{\"values\":[\"*\"]},\"catalog\":{\"values\":[\"sales_wh\"]},\"namespace\":{\"values\":[\"*\"]}},
    \"policyItems\":[{\"users\":[\"trino\"],\"accesses\":$(access "$TRINO_NAMESPACE_ACCESS")}]}"

apply quickstart-trino-tables \
  "{\"service\":\"polaris\",\"name\":\"quickstart-trino-tables\",\"isEnabled\":true,
    \"resources\":{\"root\":{\"values\":[\"*\"]},\"catalog\":{\"values\":[\"sales_wh\"]},\"namespace\":{\"values\":[\"*\"]},
      \"table\":{\"values\":[\"*\"]}},
    \"policyItems\":[{\"users\":[\"trino\"],\"accesses\":$(access "$TRINO_TABLE_ACCESS")}]}"

echo "Ranger setup done."

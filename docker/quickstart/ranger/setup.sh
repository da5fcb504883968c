#!/bin/sh
# Creates the quickstart's Ranger state (spec/002's setting), idempotently:
#   - the service "polaris" (gate one: Polaris's Ranger authorizer enforces
#     it; SQE's GRANT / REVOKE / DENY write it), with the polaris service
#     definition registered first when this Ranger lacks it;
#   - the service "query" (hive model; gate two: SQE reads row filters and
#     masks from it, CREATE POLICY writes them) and its tag service "tags";
#   - the roles analyst (alice, bob, carol), engineer (bob, carol) and
#     sqe_admin (carol): role membership lives in Ranger;
#   - the administrators' policies on "polaris": Polaris's root (which sets
#     Polaris up) and the role sqe_admin manage everything, and the roles
#     analyst and engineer may list the catalog's namespaces (the wildcard
#     discovery policy, delegate admin on the discovery access types).
set -eu
RANGER=http://ranger:6080
PASSWORD=$(cat /run/secrets/ranger_admin_password)
AUTH="admin:$PASSWORD"

# request METHOD PATH [JSON]: prints the HTTP status, the body to /tmp/ranger-answer.
request() {
  if [ $# -ge 3 ]; then
    curl -sS -u "$AUTH" -o /tmp/ranger-answer -w '%{http_code}' -X "$1" \
      -H 'Content-Type: application/json' "$RANGER$2" -d "$3"
  else
    curl -sS -u "$AUTH" -o /tmp/ranger-answer -w '%{http_code}' -X "$1" "$RANGER$2"
  fi
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
    *) echo "$1: HTTP $status $(cat /tmp/ranger-answer)" >&2; exit 1 ;;
  esac
}

if [ "$(request GET /service/public/v2/api/servicedef/name/polaris)" != 200 ]; then
  status=$(request POST /service/public/v2/api/servicedef "$(cat /setup/ranger-servicedef-polaris.json)")
  case "$status" in
    2??) echo "service definition polaris: registered" ;;
    *) echo "service definition polaris: HTTP $status $(cat /tmp/ranger-answer)" >&2; exit 1 ;;
  esac
fi

ensure "service tags" /service/public/v2/api/service/name/tags /service/public/v2/api/service \
  '{"name":"tags","type":"tag","isEnabled":true,"configs":{}}'
ensure "service query" /service/public/v2/api/service/name/query /service/public/v2/api/service \
  '{"name":"query","type":"hive","tagService":"tags","isEnabled":true,
    "configs":{"username":"admin","password":"unused","jdbc.driverClassName":"org.apache.hive.jdbc.HiveDriver","jdbc.url":"jdbc:hive2://unused:10000"}}'
ensure "service polaris" /service/public/v2/api/service/name/polaris /service/public/v2/api/service \
  '{"name":"polaris","type":"polaris","isEnabled":true,"configs":{"username":"admin","password":"unused"}}'

# Roles; createNonExistUserGroup adds the users to Ranger as they are named.
role() { # name user...
  name=$1
  shift
  members=""
  for u in "$@"; do
    members="$members${members:+,}{\"name\":\"$u\",\"isAdmin\":false}"
  done
  ensure "role $name" "/service/public/v2/api/roles/name/$name" \
    "/service/public/v2/api/roles?createNonExistUserGroup=true" \
    "{\"name\":\"$name\",\"users\":[$members]}"
}
role analyst alice bob carol
role engineer bob carol
role sqe_admin carol

# access TYPE...: a JSON list of accesses.
access() {
  list=""
  for a in "$@"; do
    list="$list${list:+,}{\"type\":\"$a\",\"isAllowed\":true}"
  done
  echo "[$list]"
}

ensure "policy quickstart-root" "/service/public/v2/api/service/polaris/policy/quickstart-root" /service/public/v2/api/policy \
  "{\"service\":\"polaris\",\"name\":\"quickstart-root\",\"isEnabled\":true,
    \"resources\":{\"root\":{\"values\":[\"*\"]}},
    \"policyItems\":[{\"users\":[\"root\"],\"roles\":[\"sqe_admin\"],\"delegateAdmin\":true,
      \"accesses\":$(access service-access-manage catalog-create catalog-list catalog-drop principal-create principal-list)}]}"

ensure "policy quickstart-principals" "/service/public/v2/api/service/polaris/policy/quickstart-principals" /service/public/v2/api/policy \
  "{\"service\":\"polaris\",\"name\":\"quickstart-principals\",\"isEnabled\":true,
    \"resources\":{\"root\":{\"values\":[\"*\"]},\"principal\":{\"values\":[\"*\"]}},
    \"policyItems\":[{\"users\":[\"root\"],\"delegateAdmin\":true,
      \"accesses\":$(access principal-drop principal-metadata-full principal-properties-read principal-properties-write principal-credentials-reset principal-credentials-rotate)}]}"

ensure "policy quickstart-catalogs" "/service/public/v2/api/service/polaris/policy/quickstart-catalogs" /service/public/v2/api/policy \
  "{\"service\":\"polaris\",\"name\":\"quickstart-catalogs\",\"isEnabled\":true,
    \"resources\":{\"root\":{\"values\":[\"*\"]},\"catalog\":{\"values\":[\"*\"]}},
    \"policyItems\":[
      {\"users\":[\"root\"],\"roles\":[\"sqe_admin\"],\"delegateAdmin\":true,
       \"accesses\":$(access catalog-content-manage catalog-metadata-full catalog-properties-read catalog-properties-write catalog-drop namespace-list namespace-create)},
      {\"roles\":[\"analyst\",\"engineer\"],\"delegateAdmin\":true,\"accesses\":$(access namespace-list)}]}"

echo "Ranger setup done."

#!/bin/sh
# Polaris state for the quickstart's RBAC variant, as root through Polaris's
# management API (spec/polaris-management-service.yml): the catalog sales_wh
# over the MinIO bucket, the principals alice, bob, carol and dave, and the
# roles of spec/002 as Polaris principal roles with their catalog roles:
#   analyst (alice, bob, carol), engineer (bob, carol): principal role and
#     catalog role of the same name, the catalog role granted to it; SQE's
#     GRANT ... TO ROLE writes privileges on those catalog roles.
#   data_admin (carol): the catalog's catalog_admin role (which Polaris
#     creates with the catalog, holding CATALOG_MANAGE_CONTENT), so that
#     carol, SQE's administrator, may create and load tables herself.
# Idempotent: an object that exists already (HTTP 409) is left as it is;
# the grants of roles to principals and of catalog roles to principal roles
# are PUTs, which Polaris takes twice without complaint.
# POLARIS_URL is for running it from the host; compose does not set it.
set -eu
API=${POLARIS_URL:-http://polaris:8181}/api
ANSWER=$(mktemp)
trap 'rm -f "$ANSWER"' EXIT
TOKEN=$(curl -sf "$API/catalog/v1/oauth/tokens" \
  -d grant_type=client_credentials -d client_id=root -d client_secret=s3cr3t -d scope=PRINCIPAL_ROLE:ALL \
  | sed -n 's/.*"access_token" *: *"\([^"]*\)".*/\1/p')
[ -n "$TOKEN" ] || { echo "no root token from Polaris" >&2; exit 1; }

# call METHOD PATH [JSON]: a management request; 409 (exists) is success.
call() {
  status=$(curl -sS -o "$ANSWER" -w '%{http_code}' -X "$1" \
    -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    "$API/management/v1$2" ${3:+-d "$3"})
  case "$status" in
    2??|409) echo "$1 $2: $status" ;;
    *) echo "$1 $2: $status $(cat "$ANSWER")" >&2; exit 1 ;;
  esac
}

call POST /catalogs '{"catalog":{"name":"sales_wh","type":"INTERNAL",
  "properties":{"default-base-location":"s3://warehouse/sales_wh"},
  "storageConfigInfo":{"storageType":"S3","allowedLocations":["s3://warehouse/sales_wh"],"region":"us-east-1",
    "endpoint":"http://minio:9000","endpointInternal":"http://minio:9000","pathStyleAccess":true}}}'

for user in alice bob carol dave; do
  call POST /principals "{\"principal\":{\"name\":\"$user\"}}"
done

for role in analyst engineer; do
  call POST /principal-roles "{\"principalRole\":{\"name\":\"$role\"}}"
  call POST /catalogs/sales_wh/catalog-roles "{\"catalogRole\":{\"name\":\"$role\"}}"
  call PUT "/principal-roles/$role/catalog-roles/sales_wh" "{\"catalogRole\":{\"name\":\"$role\"}}"
done
call POST /principal-roles '{"principalRole":{"name":"data_admin"}}'
call PUT /principal-roles/data_admin/catalog-roles/sales_wh '{"catalogRole":{"name":"catalog_admin"}}'

# grant USER ROLE: the principal role to the principal.
grant() { call PUT "/principals/$1/principal-roles" "{\"principalRole\":{\"name\":\"$2\"}}"; }
grant alice analyst
grant bob analyst
grant bob engineer
grant carol analyst
grant carol engineer
grant carol data_admin
echo "Polaris setup done."

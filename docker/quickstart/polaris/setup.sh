#!/bin/sh
# Creates the quickstart's Polaris state as root: the catalog "lake" over
# the MinIO bucket, the principals alice, bob and dave (the names Keycloak
# puts in preferred_username), the principal roles analyst and engineer,
# and the grants: analysts read every table, engineers also write.
set -eu
API=http://polaris:8181/api
TOKEN=$(curl -sf "$API/catalog/v1/oauth/tokens" \
  -d grant_type=client_credentials -d client_id=root -d client_secret=s3cr3t -d scope=PRINCIPAL_ROLE:ALL \
  | sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p')
[ -n "$TOKEN" ] || { echo "no root token from Polaris" >&2; exit 1; }

call() { # method path [json]
  curl -sS --fail-with-body -X "$1" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    "$API/management/v1$2" ${3:+-d "$3"}
  echo
}

call POST /catalogs '{"catalog":{"name":"lake","type":"INTERNAL",
  "properties":{"default-base-location":"s3://warehouse/lake"},
  "storageConfigInfo":{"storageType":"S3","allowedLocations":["s3://warehouse/lake"],
    "endpoint":"http://minio:9000","endpointInternal":"http://minio:9000","pathStyleAccess":true}}}'

for role in analyst engineer; do
  call POST /principal-roles "{\"principalRole\":{\"name\":\"$role\"}}"
done
for user in alice bob dave; do
  call POST /principals "{\"principal\":{\"name\":\"$user\"}}" >/dev/null
done
call PUT /principals/alice/principal-roles '{"principalRole":{"name":"analyst"}}'
call PUT /principals/bob/principal-roles '{"principalRole":{"name":"analyst"}}'
call PUT /principals/bob/principal-roles '{"principalRole":{"name":"engineer"}}'

call POST /catalogs/lake/catalog-roles '{"catalogRole":{"name":"reader"}}'
call POST /catalogs/lake/catalog-roles '{"catalogRole":{"name":"writer"}}'
for p in NAMESPACE_LIST NAMESPACE_READ_PROPERTIES TABLE_LIST TABLE_READ_PROPERTIES TABLE_READ_DATA; do
  call PUT /catalogs/lake/catalog-roles/reader/grants "{\"type\":\"catalog\",\"privilege\":\"$p\"}"
done
call PUT /catalogs/lake/catalog-roles/writer/grants '{"type":"catalog","privilege":"CATALOG_MANAGE_CONTENT"}'
call PUT /principal-roles/analyst/catalog-roles/lake '{"catalogRole":{"name":"reader"}}'
call PUT /principal-roles/engineer/catalog-roles/lake '{"catalogRole":{"name":"writer"}}'
echo "Polaris setup done."

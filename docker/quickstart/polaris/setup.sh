#!/bin/sh
# Creates the quickstart's Polaris state as root: the catalog sales_wh over
# the MinIO bucket, the principals alice, bob, carol and dave (the names
# Keycloak puts in preferred_username) and trino, the service principal
# the Trino services read the catalog as (trino/catalog/iceberg.properties),
# with the client id and secret of the compose secret
# trino_polaris_credential (id:secret). Who may do what is not kept here:
# Polaris asks Ranger (service "polaris"), where ranger/setup.sh put the
# administrators' policies and SQE's GRANT statements put the rest.
# Requests are Polaris's management API (apache/polaris
# spec/polaris-management-service.yml: createCatalog, createPrincipal,
# resetCredentials) after the token request of its Iceberg REST OAuth
# endpoint, as recorded in cmd/sqe/testdata/quickstart/requests/polaris-setup-*.json.
# Idempotent: an object that exists already (HTTP 409) is left as it is.
# POLARIS_URL and TRINO_POLARIS_CREDENTIAL_FILE are for the tests; compose
# sets neither.
set -eu
API=${POLARIS_URL:-http://polaris:8181}/api
CREDENTIAL=$(tr -d '\r\n' <"${TRINO_POLARIS_CREDENTIAL_FILE:-/run/secrets/trino_polaris_credential}")
TRINO_CLIENT_ID=${CREDENTIAL%%:*}
TRINO_CLIENT_SECRET=${CREDENTIAL#*:}
case "$CREDENTIAL" in
  ?*:?*) ;;
  *) echo "trino_polaris_credential does not hold client-id:client-secret" >&2; exit 1 ;;
esac
ANSWER=$(mktemp)
trap 'rm -f "$ANSWER"' EXIT
TOKEN=$(curl -sf "$API/catalog/v1/oauth/tokens" \
  -d grant_type=client_credentials -d client_id=root -d client_secret=s3cr3t -d scope=PRINCIPAL_ROLE:ALL \
  | sed -n 's/.*"access_token" *: *"\([^"]*\)".*/\1/p')
[ -n "$TOKEN" ] || { echo "no root token from Polaris" >&2; exit 1; }

# create PATH JSON: POST to the management API; 409 (exists) is success.
# The body goes through stdin, so no credential shows in a process list.
create() {
  status=$(printf '%s' "$2" | curl -sS -o "$ANSWER" -w '%{http_code}' -X POST \
    -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    "$API/management/v1$1" --data-binary @-)
  case "$status" in
    2??|409) echo "POST $1: $status" ;;
    *) echo "POST $1: $status $(cat "$ANSWER")" >&2; exit 1 ;;
  esac
}

create /catalogs '{"catalog":{"name":"sales_wh","type":"INTERNAL",
  "properties":{"default-base-location":"s3://warehouse/sales_wh"},
  "storageConfigInfo":{"storageType":"S3","allowedLocations":["s3://warehouse/sales_wh"],"region":"us-east-1",
    "endpoint":"http://minio:9000","endpointInternal":"http://minio:9000","pathStyleAccess":true}}}'

for user in alice bob carol dave; do
  create /principals "{\"principal\":{\"name\":\"$user\"}}"
done

# trino: created once, its credentials set on every run (a changed secret
# file takes effect). Polaris answers with the credentials, which stay in
# $ANSWER; Ranger policies of the user trino (ranger/setup.sh) let it read
# sales_wh.
create /principals '{"principal":{"name":"trino"}}'
create /principals/trino/reset \
  "{\"clientId\":\"$TRINO_CLIENT_ID\",\"clientSecret\":\"$TRINO_CLIENT_SECRET\"}"
echo "Polaris setup done."

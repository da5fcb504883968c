#!/bin/bash
# Entry point of the trino and trino-worker services: Trino reads secrets
# from the environment only (${ENV:...} in catalog/iceberg.properties),
# compose hands them over as files. This exports the Polaris credential
# of the principal trino (client id:secret, the compose secret
# trino_polaris_credential) as POLARIS_CREDENTIAL, then runs the image's
# own start script.
# The two overrides are for the tests (cmd/sqe); compose sets neither.
set -euo pipefail
CREDENTIAL_FILE=${TRINO_POLARIS_CREDENTIAL_FILE:-/run/secrets/trino_polaris_credential}
IMAGE_ENTRYPOINT=${QUICKSTART_IMAGE_ENTRYPOINT:-/usr/lib/trino/bin/run-trino}
POLARIS_CREDENTIAL=$(tr -d '\r\n' <"$CREDENTIAL_FILE")
case "$POLARIS_CREDENTIAL" in
  ?*:?*) ;;
  *)
    echo "quickstart: $CREDENTIAL_FILE does not hold client-id:client-secret" >&2
    exit 1
    ;;
esac
export POLARIS_CREDENTIAL
exec "$IMAGE_ENTRYPOINT" "$@"

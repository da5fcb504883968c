#!/bin/bash
# Entry point of the ranger service: the first-start setup of the image's own
# start script (/home/ranger/scripts/ranger.sh, apache/ranger-tools
# release/scripts/ranger.sh) with one line added to Ranger Admin's
# install.properties, hadoop_conf=$HADOOP_CONF, whose core-site.xml turns on
# tag row filters (see hadoop-conf/core-site.xml). Then the image's script
# runs as always; finding the setup done, it only starts Ranger Admin.
#
# As the image's script, the setup reads the image's install.properties and
# appends the database credentials and the passwords of Ranger's own users
# from POSTGRES_PASSWORD, RANGER_DB_USER and RANGER_DB_PASSWORD (the admin
# password is RANGER_DB_PASSWORD). Should anything here fail, the image's
# script runs its own setup instead: Ranger starts, without tag row filters.
set -u
# The two overrides are for the tests (cmd/sqe); compose sets neither.
HADOOP_CONF=${QUICKSTART_HADOOP_CONF:-/quickstart/hadoop-conf}
IMAGE_ENTRYPOINT=${QUICKSTART_IMAGE_ENTRYPOINT:-/home/ranger/scripts/ranger.sh}

first_start_setup() {
  local src="" f
  for f in "${RANGER_SCRIPTS:-/home/ranger/scripts}/ranger-admin-install.properties" /tmp/install.properties; do
    if [ -f "$f" ]; then
      src=$f
      break
    fi
  done
  [ -n "$src" ] && [ -f "$HADOOP_CONF/core-site.xml" ] || return 1
  cp "$src" "$RANGER_HOME/admin/install.properties" || return 1
  {
    echo "db_root_password=${POSTGRES_PASSWORD:-}"
    echo "db_user=${RANGER_DB_USER:-}"
    echo "db_password=${RANGER_DB_PASSWORD:-}"
    echo "rangerAdmin_password=${RANGER_DB_PASSWORD:-}"
    echo "rangerTagsync_password=${RANGER_DB_PASSWORD:-}"
    echo "rangerUsersync_password=${RANGER_DB_PASSWORD:-}"
    echo "keyadmin_password=${RANGER_DB_PASSWORD:-}"
    echo "hadoop_conf=${HADOOP_CONF}"
  } >>"$RANGER_HOME/admin/install.properties" || return 1
  (cd "$RANGER_HOME/admin" && ./setup.sh) || return 1
  rm -f "$RANGER_HOME/admin/install.properties"
  touch "$RANGER_HOME/.setupDone"
}

if [ -n "${RANGER_HOME:-}" ] && [ ! -e "$RANGER_HOME/.setupDone" ]; then
  if first_start_setup; then
    echo "quickstart: Ranger Admin set up with hadoop_conf=$HADOOP_CONF (tag row filters on)"
  else
    echo "quickstart: setup with hadoop_conf failed; the image's own setup runs instead (tag row filters off)" >&2
  fi
fi
exec "$IMAGE_ENTRYPOINT"

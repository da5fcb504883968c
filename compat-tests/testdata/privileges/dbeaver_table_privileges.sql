-- DBeaver, PostgreTableBase.getPermissions (a table's Permissions tab).
SELECT * FROM information_schema.table_privileges WHERE table_catalog=$1 AND table_schema=$2 AND table_name=$3

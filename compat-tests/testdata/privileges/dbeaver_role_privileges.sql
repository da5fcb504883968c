-- DBeaver, PostgreRole.getPermissions (a role's Permissions tab).
SELECT * FROM information_schema.table_privileges WHERE table_catalog=$1 AND grantee=$2

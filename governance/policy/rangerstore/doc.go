// Package rangerstore is gate two's policy store backed by Apache Ranger
// Admin ([policy] engine = "ranger"): the row-filter, data-mask and
// column-restricting access policies of a hive-model service (the "query" service) and of the tag
// service linked to it, shared with Spark and Kyuubi plugins reading the
// same services.
//
// Reads work as a Ranger plugin's do: the policies come from the plugin
// download (ServicePolicies, with the linked tag service's policies and
// definition) and the roles from the role download, each asked for with
// the last version seen, so that an unchanged service answers 304 with
// no body. The authenticated ("secure") download endpoints are used, as
// the admin credentials only count there.
//
// A snapshot is cached for cache-ttl-secs. Within the TTL it is served
// without a request, even when Ranger Admin is down (fail-stale, bounded
// by the TTL); after it, the next Snapshot revalidates, and a failed
// revalidation is an error, on which the Enforcer admits no row, until
// Ranger Admin answers again. One download runs at a time: concurrent
// callers wait for it and share its result. SQE's own writes flush the
// cache, so only changes made in Ranger's console wait for the TTL.
//
// Writes use the public v2 policy API: a tag policy goes to the linked
// tag service, any other to the hive-model service. Ranger keeps names
// unique per service; the store keeps them unique across the two, as
// the embedded store does, so that DROP POLICY names one policy. An edit
// (DENY or REVOKE of SELECT on columns) reads the policy by name, changes
// it and writes back Ranger's own JSON, so fields edited in the console
// survive; Ranger has no transaction across the read and the write.
//
// Column tags live on the Iceberg table (sqe.column-tags), where SQE
// reads them; Spark and Kyuubi plugins read Ranger's tag store instead.
// With project_tags, ProjectColumnTags writes a table's column tags to
// the tag store too, through the ServiceTags import tagsync uses, which
// Ranger Admin applies in one transaction.
//
// The admin password never appears in an error or a log line, and
// neither does a response body other than Ranger's own error message.
package rangerstore

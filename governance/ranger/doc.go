// Package ranger evaluates Apache Ranger policies in process, with
// Ranger's semantics, so that SQE can enforce the same grants, masks and
// row filters whether its policies live in its own store or are downloaded
// from Ranger Admin.
//
// The model types mirror Ranger's JSON (RangerServiceDef is ServiceDef,
// RangerPolicy is Policy, the plugin's policy, tag and role downloads are
// ServicePolicies, ServiceTags and Roles), so a download decodes into them
// directly. New compiles a service definition, its policies, the linked
// tag service's policies, the tag store, the roles and the super users
// into an Evaluator: wildcards become matchers, access types become bit
// sets (with implied grants expanded), conditions and validity schedules
// are compiled, and policies are sorted into Ranger's evaluation order.
// Anything it cannot evaluate faithfully is refused at that point rather
// than misread later: a resource or matcher it does not know fails New,
// and a policy whose conditions or validity schedules it cannot evaluate
// (an undefined condition type, an evaluator it lacks, a script that does
// not compile) is refused on its own (RefusedPolicy, Evaluator.Refused):
// it denies wherever it applies, and a mask or row filter it could give
// is an error, so that callers fail closed. The Evaluator is then
// immutable and safe for concurrent use.
//
// Conditions are Ranger's: JavaScript condition scripts and script
// templates, run by goja in a sandbox with the bindings and macros
// Ranger gives them (script.go), IP ranges (the client's address, which
// both gates pass), times of day, context-value matchers, tag presence and
// accessed-together. Validity schedules take their time zone and their
// recurrences (cron-like fields, each starting an interval; schedule.go). A geolocation enricher adds the client's
// location to the request's context values. A condition that cannot be
// decided for a request (a script that throws or runs out of time, an
// input the request lacks) fails closed by what its item does: an allow
// item or deny exception does not apply, a deny item or allow exception
// does, a policy-level condition denies, and a mask or row filter search
// fails.
//
// Resource levels are matched with Ranger's matchers: the default one
// (wildcards, case), the URL matcher and the path matcher
// (RangerPathResourceMatcher: recursive values cover everything below
// them, pathSeparatorChar), {USER} and {OWNER} in values expanded per
// request, and SELF_OR_PREFIX scopes. Marker access types (_READ, _ALL)
// grant what the service definition says they imply. Super users and
// groups also come from the service configuration, whose
// ranger.plugin.audit.filters decide, after the policies, whether a
// request is audited. Security zones send a request for a zone's
// resources to the zone's policies; ApplyPolicyDeltas applies a delta
// download.
//
// A request (resource levels, access type, user, groups, roles, tags)
// flows as follows. The caller's roles are completed from the role set.
// The resource's tags are taken from the request or found in the tag
// store (a tag on an ancestor applies; one on a descendant only to
// any-access). Tag policies matching those tags, then resource policies
// matching the resource (same resource, or everything below a parent; a
// descendant only for any-access), are collected with their policy
// conditions checked; any of them with auditing on makes the request
// audited. IsAccessAllowed then decides each requested access type: inside
// a policy a deny item (unless excepted) beats an allow item (unless
// excepted), and isDenyAllElse denies what nothing allowed; across
// policies the highest priority with a decision wins and a deny beats an
// allow at that priority. EvalDataMask walks tag masks (closest tag first)
// then resource masks and keeps the first matching item unless a later
// policy has strictly higher priority; Config.MaskPrecedence "resource"
// walks resource masks first, so that they win at equal priority.
// EvalDataMasks answers for every column of a table at once, matching the
// resource masks against the table only once. EvalRowFilter takes, the
// same way, the first matching item of tag then resource row filters, as
// Ranger does; EvalRowFilters returns the first matching item of every
// applicable row-filter policy, for callers that AND them. A tag row
// filter reaches a table through a tag on the table, an ancestor or one
// of its columns. All of them resolve ${{USER.attr}} macros.
//
// Tag row filters need a tag service definition with a rowFilterDef, which
// Ranger Admin serves only with
// ranger.servicedef.autopropagate.rowfilterdef.to.tag=true;
// TagServiceDefFor builds the tag service definition Ranger Admin serves
// for a component, with or without it.
//
// RunConformance runs Ranger's own policy-engine test files and Apache
// Polaris's Ranger authorizer tests against the evaluator; testdata holds
// copies of them and the expected outcome.
package ranger

// Package rangerrest is the one client of Apache Ranger Admin's REST API
// that gate one's backend (governance/rangeradmin) and gate two's policy
// store (governance/policy/rangerstore) both speak through, so that the
// two agree on how a request is made and how Ranger's answer is read.
//
// A Client sends JSON with HTTP basic auth and decodes a 2xx answer. Do
// returns the status, so that a conditional download can see 304, and
// does not retry: whether a request may be repeated is the caller's
// business. A non-2xx answer is an *HTTPError carrying Ranger's own error
// message (msgDesc of its RESTResponse) and nothing else of the body, as
// an HTML page or a proxy's text may echo the request; a request that
// got no answer is a *NetworkError. Neither carries the password.
//
// What an error means to a SQL client (its SQLSTATE, hint and detail) is
// decided by each caller: the same Ranger answer is a different problem
// to a GRANT than to a policy download.
package rangerrest

// Package trinotest is a Trino coordinator for tests, served in process on
// a loopback port. It follows Trino's client REST protocol, not SQE's
// client: a POST to /v1/statement queues the statement and answers a
// first page with a nextUri and no data; each GET of a nextUri answers
// the next page (the columns first, then the rows a few at a time, then a
// last page without a nextUri, or with the query's error); a DELETE of a
// nextUri cancels the query. Pages are made as they are asked for, so a
// test can tell how far a client has read.
//
// As Trino does, it rounds nothing for a client that declares the
// PARAMETRIC_DATETIME capability and, for one that does not, describes a
// timestamp(p) column as timestamp and cuts its values to milliseconds
// (Trino rounds them). It can answer "retry later" (503) to a number of
// GETs, refuse the statement with an HTTP status, and require basic
// authentication over https.
//
// A statement is answered with the Result given for its exact text;
// another statement fails with NOT_SUPPORTED.
package trinotest

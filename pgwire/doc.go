// Package pgwire is the server side of the PostgreSQL v3 wire protocol: it
// is how psql, drivers, ORMs and BI tools talk to SQE. It accepts TCP
// connections, negotiates TLS, checks the client's password (a JWT) through
// an Authenticator, opens a Session for the caller and then turns protocol
// messages into calls on that Session and Arrow result batches into DataRow
// messages. It knows nothing of planning, storage or governance: the
// Session interface is its whole view of SQL.
//
// # Layers
//
// From the socket up:
//
//   - framing: startup-phase packets are read byte-exact (framing.go); after
//     startup a pgproto3.Backend decodes messages from a chunk reader behind
//     a frameGuard that refuses a declared length over MaxMessageSize before
//     allocating it.
//   - connection: conn (conn.go) owns one client: its reader goroutine, its
//     inbox of decoded messages, its write buffer and its contexts.
//   - startup and login (startup.go, login.go): SSLRequest/GSSENCRequest,
//     CancelRequest, StartupMessage, the TLS policy, cleartext password
//     exchange, ParameterStatus and BackendKeyData.
//   - processing (process.go, simple_query.go, extended.go, portal.go): one
//     frontend message at a time against the Session.
//   - encoding (encode_row.go, encode_text.go, encode_binary.go): Arrow
//     batches to DataRows, each column in text or binary format, without
//     per-row or per-value allocation.
//   - COPY ... TO STDOUT (copy_out.go, copy_out_encode.go): a result that
//     is an sql.CopyOutResult is sent as CopyOutResponse, one CopyData per
//     row in text, csv or binary COPY format (values from the same text
//     and binary encoders), CopyDone and CommandComplete, in the simple
//     and the extended protocol alike.
//   - COPY ... FROM STDIN (copy_in.go): a result that is an
//     sql.CopyInResult is answered with CopyInResponse; the statement then
//     reads the CopyData payloads straight from the inbox (Flush and Sync
//     ignored, CopyFail failing it with 57014) until CopyDone, and ends
//     with CommandComplete "COPY n". Copy messages that arrive after a
//     failed COPY are dropped, as PostgreSQL drops them.
//   - writing (writer.go): messages are appended with pgproto3's Encode into
//     one buffer per connection, written to the socket when it passes 64 KiB,
//     at every ReadyForQuery and before the processor waits for input, so a
//     result set costs few syscalls.
//
// # Connection lifecycle
//
//  1. Accept. Serve accepts a socket and starts its handler goroutine. From
//     here until phase 5 one deadline, StartupTimeout, bounds everything: a
//     client that has not logged in by then is dropped. A connection from
//     a load balancer in ProxyProtocolFrom first gives its client's
//     address in a PROXY protocol header, read here by the handler, never
//     by the accept loop (proxy_protocol.go); without one it is closed.
//  2. Negotiate. The handler reads startup packets. SSLRequest is answered
//     'S' followed by a TLS handshake (TLS 1.2 or later), or 'N' when the
//     server has no certificate; a second one is a protocol violation. A
//     failed handshake (a client certificate missing or not signed by
//     TLSClientCAFile) closes the socket and is logged.
//     GSSENCRequest is answered 'N'. A CancelRequest is served (see below)
//     and the socket closed. A StartupMessage other than v3.0 is refused
//     with FATAL 08P01.
//  3. Admit. A StartupMessage without a user is refused (FATAL 28000); a
//     plaintext connection is refused (FATAL 28000) unless it comes from a
//     loopback address and RequireTLS is off. The connection then takes one
//     of MaxConnections slots or is refused with FATAL 53300 (and, once
//     its user is authenticated, one of MaxConnectionsPerUser: FATAL 53300
//     "too many connections for role").
//  4. Authenticate. The server asks for a cleartext password, reads the
//     PasswordMessage (tokens up to 1 MiB) and calls the Authenticator; a
//     refusal is FATAL 28P01. With ClientCertUserMatch the client
//     certificate's subject Common Name must then be the authenticated
//     user, or FATAL 28000. The startup packet's other parameters, with
//     the -c name=value and --name=value switches of options
//     (backslash-escaped as in PostgreSQL; options first, so a parameter
//     of its own wins), become Startup.Settings (startup_settings.go); a
//     malformed options is FATAL 42601. The SessionFactory opens the
//     Session, which applies the settings as if SET at its start and
//     fails with PostgreSQL's FATAL error for an unknown parameter or an
//     invalid value. The
//     client receives AuthenticationOk, the reported parameters
//     (server_version, DateStyle, TimeZone, ... merged with the session's
//     ReportedParameters), BackendKeyData and ReadyForQuery, and only then
//     becomes reachable by CancelRequest.
//  5. Serve. The reader goroutine starts; the handler becomes the processor
//     and handles queued messages until the connection ends.
//  6. Close. The connection's context is cancelled, the socket closed, the
//     reader goroutine waited for, the Session closed and the slot released.
//     Nothing of the connection outlives its handler goroutine.
//
// # Goroutines and ownership
//
// Each connection has exactly two goroutines. The handler goroutine runs
// phases 1 to 4 itself and then processes messages: it alone owns the
// message writer, the Session, the parameter values the client has been
// sent and all protocol state, including the prepared statements and
// portals. The reader goroutine owns the
// pgproto3.Backend after startup: it decodes each message, deep-copies it
// (pgproto3 reuses its structs and buffers) and pushes it into the inbox, a
// FIFO bounded in bytes rather than in messages. The reader never waits for
// a statement to finish, so it sees Terminate, EOF and malformed input while
// a statement runs. Other goroutines only cancel contexts, look up the
// cancel key and close the socket.
//
// # Extended query protocol
//
// Parse asks the Session to prepare a statement (its parameter types and
// row shape) and keeps it by name among the Session's prepared
// statements, the namespace SQL's PREPARE, EXECUTE and DEALLOCATE use
// too; Bind asks the Session to decode the parameter values and keeps the
// resulting, not yet started, sql.Result as a portal together with the
// result formats. Execute pulls batches from
// the portal's result and encodes rows until the result ends
// (CommandComplete) or the row limit is reached (PortalSuspended); a
// suspended portal keeps the batch it is part-way through, so the next
// Execute resumes without re-running or buffering anything. The lifetimes
// are PostgreSQL's: the unnamed statement is replaced by the next Parse of
// it or by a simple Query; named statements live until Close (or
// DEALLOCATE); portals die with their transaction, which outside a
// transaction block is at Sync (or at the end of a simple Query). After an error every message up to Sync
// is ignored. PostgreSQL 15 is the reference: the scripts in
// testdata/wire run against SQE and a real PostgreSQL alike.
//
// # Cancellation
//
// Every connection has a context, a child of the server's, that is
// cancelled with a cause when the connection must end; every statement (and
// every Parse) runs under its own child of it.
//
//   - CancelRequest: a new connection carrying (process id, secret) cancels
//     only the running statement of the connection it names. The session
//     error becomes 57014 "canceling statement due to user request" and the
//     session stays usable. The secret comes from crypto/rand and is
//     compared in constant time; an unknown pair is ignored silently, as in
//     PostgreSQL.
//   - Disconnect and Terminate: the reader cancels the connection's context
//     at once, so a running statement stops without its result being sent.
//   - Protocol violations and oversized messages: the reader cancels the
//     connection with the reason; the processor sends FATAL 08P01 (54000
//     for a message over MaxMessageSize) and closes.
//   - Shutdown: the server stops accepting and cancels every connection with
//     errShutdown; each processor abandons its statement, sends FATAL 57P01
//     "terminating connection due to administrator command" and closes.
//     Cancelling a connection also sets its read deadline to now and its
//     write deadline a second ahead, so nothing blocks on a silent client;
//     if Shutdown's context ends first, the remaining sockets are closed.
//
// # Limits and errors
//
// A configured QueryLimiter admits each query before it runs (ratelimit.go
// says what counts as one); a refused query gets the limiter's 53400 error
// and the connection carries on. Every error reaches the client through
// errorResponse (errors.go): user errors as they were made, internal ones
// (XX000, class 58, anything without a SQLSTATE) as SQLSTATE, short
// message and request id, their cause in the log under that id and, with
// Debug, in the DETAIL. A message whose SQL text or statement or portal
// name is not UTF-8 is refused with ERROR 22021 before the session sees it
// (encoding.go). A panic in any of a connection's goroutines (handler,
// reader, processor) is recovered there and ends that connection alone
// with FATAL XX000 and a request id (panic.go).
//
// # Session limits
//
// Config.IdleTimeout and SessionLifetime bound a session's life. One
// sweeper goroutine per server (session_sweeper.go), not one per
// connection, checks the connections past startup a few times per
// limit: the processor records when it starts waiting for its client,
// and a session that has waited longer than IdleTimeout is cancelled
// with FATAL 57P05 "terminating connection due to idle-session timeout"
// (25P03 "... idle-in-transaction timeout" inside a transaction block),
// one older than SessionLifetime with FATAL 57P01 "terminating connection
// due to session lifetime limit", whatever it is doing. The client
// reads the error, then the connection closes. A login token that
// expired more than TokenExpiryGrace ago ends the session at its next
// Query, Parse, Bind or Execute with FATAL 28000, so a revoked identity
// does not live on in a pooled connection.
//
// # TLS policy
//
// The password is a bearer token: whoever reads it can act as the user
// until it expires. It must therefore never cross a network unencrypted.
// TLS is on by default; without a configured certificate a self-signed one
// is created once in <DataDir>/tls (key file mode 0600), which is what
// sslmode=require (the default of several drivers) needs. Plaintext is
// accepted only from loopback addresses, where the token never leaves the
// host, and not at all with RequireTLS. The cleartext password exchange is
// acceptable precisely because of this policy.
//
// Client certificates (tls.go) add a second factor to the token, never a
// replacement for it. With TLSClientCAFile the server asks for a client
// certificate and the handshake fails when one is presented that does not
// chain to those CAs (or has expired, or is not for client use). With
// RequireClientCert a TLS client without one fails the handshake too, and
// RequireTLS is implied, since a plaintext connection cannot present a
// certificate. With ClientCertUserMatch a login whose token is valid but
// whose certificate's Common Name is another user is refused with FATAL
// 28000 `certificate authentication failed for user "x"`, as PostgreSQL's
// clientcert=verify-full words it; only the log says why. Configuration
// that cannot be enforced (a required certificate without a CA file, a
// user match without a required certificate, a CA file that is unreadable
// or holds no certificate) stops NewServer.
//
// # Not implemented yet
//
// Fastpath function calls, SCRAM and GSS authentication
// and NegotiateProtocolVersion for 3.x minor versions are not implemented.
//
// timestamptz text (DataRow, COPY, array elements) is printed in the
// session's TimeZone, read from the parameters the session reports; binary
// output is the UTC instant whatever the zone.
package pgwire

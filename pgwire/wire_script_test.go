package pgwire_test

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgproto3/v2"
)

// A wire script (testdata/wire/*.txt) is a conversation with the server,
// one message a line:
//
//	# a comment
//	> {"Type":"Parse","Name":"s1","Query":"select $1::int"}
//	> {"Type":"Sync"}
//	< {"Type":"ParseComplete"}
//	< {"Type":"ReadyForQuery","TxStatus":"I"}
//
// A run of "> " lines is sent in one write (a pipelined batch); the "< "
// lines after it are the backend messages expected in reply, in canonical
// form (see canonical), and exactly that many are read. After the last
// batch a Sync must be answered by ReadyForQuery alone, so a reply with
// extra messages fails too; a script whose last expectation is
// {"Type":"ConnectionClosed"} (the server hung up, as after Terminate)
// ends there instead. ParameterStatus and NoticeResponse messages
// are not part of expectations: their content differs between servers.
type wireStep struct {
	line   int // of the first send line
	send   []frontendLine
	expect []string // canonical JSON
}

// frontendLine is a "> " line; its fields are those of the pgproto3
// message named by Type.
type frontendLine struct {
	Type                 string
	Name                 string
	Query                string
	ParameterOIDs        []uint32
	DestinationPortal    string
	PreparedStatement    string
	ParameterFormatCodes []int16
	// Parameters are text, null for NULL, or {"hex": "..."} for bytes.
	Parameters        []wireBytes
	ResultFormatCodes []int16
	ObjectType        string // "S" or "P"
	Portal            string
	MaxRows           uint32
	String            string
	// Data is a CopyData payload; Message a CopyFail's.
	Data    wireBytes
	Message string
}

// wireBytes is a parameter or column value: a JSON string when it is
// printable UTF-8, {"hex": "..."} otherwise, null for NULL.
type wireBytes struct {
	b    []byte
	null bool
}

func (w *wireBytes) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		w.null = true
		return nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err == nil {
		w.b = []byte(s)
		return nil
	}
	var h struct{ Hex string }
	if err := json.Unmarshal(data, &h); err != nil {
		return fmt.Errorf("value must be a string, null or {\"hex\": ...}: %w", err)
	}
	b, err := hex.DecodeString(h.Hex)
	if err != nil {
		return fmt.Errorf("hex value: %w", err)
	}
	w.b = b
	return nil
}

// valueJSON is the canonical form of one value.
func valueJSON(v []byte) any {
	if v == nil {
		return nil
	}
	printable := utf8.Valid(v)
	for _, c := range v {
		if c < 0x20 || c == 0x7f {
			printable = false
		}
	}
	if printable {
		return string(v)
	}
	return map[string]string{"hex": hex.EncodeToString(v)}
}

// copyDataJSON is the canonical form of a CopyData payload: a JSON
// string when it is UTF-8 text (tabs and line breaks included), else hex.
func copyDataJSON(d []byte) any {
	if !utf8.Valid(d) {
		return map[string]string{"hex": hex.EncodeToString(d)}
	}
	for _, c := range d {
		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f {
			return map[string]string{"hex": hex.EncodeToString(d)}
		}
	}
	return string(d)
}

func (l frontendLine) message() (pgproto3.FrontendMessage, error) {
	switch l.Type {
	case "Parse":
		return &pgproto3.Parse{Name: l.Name, Query: l.Query, ParameterOIDs: l.ParameterOIDs}, nil
	case "Bind":
		params := make([][]byte, len(l.Parameters))
		for i, p := range l.Parameters {
			if !p.null {
				params[i] = append([]byte{}, p.b...)
			}
		}
		return &pgproto3.Bind{DestinationPortal: l.DestinationPortal, PreparedStatement: l.PreparedStatement,
			ParameterFormatCodes: l.ParameterFormatCodes, Parameters: params, ResultFormatCodes: l.ResultFormatCodes}, nil
	case "Describe", "Close":
		if len(l.ObjectType) != 1 {
			return nil, fmt.Errorf("%s needs ObjectType S or P", l.Type)
		}
		if l.Type == "Describe" {
			return &pgproto3.Describe{ObjectType: l.ObjectType[0], Name: l.Name}, nil
		}
		return &pgproto3.Close{ObjectType: l.ObjectType[0], Name: l.Name}, nil
	case "Execute":
		return &pgproto3.Execute{Portal: l.Portal, MaxRows: l.MaxRows}, nil
	case "Sync":
		return &pgproto3.Sync{}, nil
	case "Flush":
		return &pgproto3.Flush{}, nil
	case "Query":
		return &pgproto3.Query{String: l.String}, nil
	case "Terminate":
		return &pgproto3.Terminate{}, nil
	case "CopyData":
		return &pgproto3.CopyData{Data: append([]byte{}, l.Data.b...)}, nil
	case "CopyDone":
		return &pgproto3.CopyDone{}, nil
	case "CopyFail":
		return &pgproto3.CopyFail{Message: l.Message}, nil
	}
	return nil, fmt.Errorf("unknown frontend message type %q", l.Type)
}

// canonical renders a backend message as the JSON a script expects:
// only what must agree between SQE and PostgreSQL (no table OIDs, error
// file names or routines).
func canonical(msg pgproto3.BackendMessage) (string, error) {
	var v map[string]any
	switch m := msg.(type) {
	case *pgproto3.ParseComplete:
		v = map[string]any{"Type": "ParseComplete"}
	case *pgproto3.BindComplete:
		v = map[string]any{"Type": "BindComplete"}
	case *pgproto3.CloseComplete:
		v = map[string]any{"Type": "CloseComplete"}
	case *pgproto3.NoData:
		v = map[string]any{"Type": "NoData"}
	case *pgproto3.PortalSuspended:
		v = map[string]any{"Type": "PortalSuspended"}
	case *pgproto3.EmptyQueryResponse:
		v = map[string]any{"Type": "EmptyQueryResponse"}
	case *pgproto3.ParameterDescription:
		oids := append([]uint32{}, m.ParameterOIDs...)
		v = map[string]any{"Type": "ParameterDescription", "ParameterOIDs": oids}
	case *pgproto3.RowDescription:
		fields := make([]any, len(m.Fields))
		for i, f := range m.Fields {
			fields[i] = map[string]any{
				"Name": string(f.Name), "TypeOID": f.DataTypeOID, "TypeSize": f.DataTypeSize,
				"TypeModifier": f.TypeModifier, "Format": f.Format,
				// A table's OID differs between servers; whether there is one does not.
				"FromTable": f.TableOID != 0, "AttNum": f.TableAttributeNumber,
			}
		}
		v = map[string]any{"Type": "RowDescription", "Fields": fields}
	case *pgproto3.DataRow:
		vals := make([]any, len(m.Values))
		for i, val := range m.Values {
			vals[i] = valueJSON(val)
		}
		v = map[string]any{"Type": "DataRow", "Values": vals}
	case *pgproto3.CommandComplete:
		v = map[string]any{"Type": "CommandComplete", "CommandTag": string(m.CommandTag)}
	case *pgproto3.ReadyForQuery:
		v = map[string]any{"Type": "ReadyForQuery", "TxStatus": string(m.TxStatus)}
	case *pgproto3.CopyOutResponse:
		codes := append([]uint16{}, m.ColumnFormatCodes...)
		v = map[string]any{"Type": "CopyOutResponse", "OverallFormat": m.OverallFormat, "ColumnFormatCodes": codes}
	case *pgproto3.CopyInResponse:
		codes := append([]uint16{}, m.ColumnFormatCodes...)
		v = map[string]any{"Type": "CopyInResponse", "OverallFormat": m.OverallFormat, "ColumnFormatCodes": codes}
	case *pgproto3.CopyData:
		v = map[string]any{"Type": "CopyData", "Data": copyDataJSON(m.Data)}
	case *pgproto3.CopyDone:
		v = map[string]any{"Type": "CopyDone"}
	case *pgproto3.ErrorResponse:
		v = map[string]any{"Type": "ErrorResponse", "Severity": m.Severity, "Code": m.Code, "Message": m.Message}
		if m.Position != 0 {
			v["Position"] = m.Position
		}
		if strings.HasPrefix(m.Where, "COPY ") {
			// COPY's context lines are compared; the others (a bad
			// parameter's) SQE does not send yet.
			v["Where"] = m.Where
		}
	default:
		return "", fmt.Errorf("unexpected backend message %T", msg)
	}
	b, err := json.Marshal(v)
	return string(b), err
}

// normalizeJSON re-encodes a script line so key order and spacing do not
// matter.
func normalizeJSON(line string) (string, error) {
	var v any
	dec := json.NewDecoder(strings.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	b, err := json.Marshal(v)
	return string(b), err
}

func readScript(path string) ([]wireStep, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var steps []wireStep
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	prevSend := false // a batch is a run of consecutive send lines
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		isSend := strings.HasPrefix(line, "> ")
		if isSend && !prevSend {
			steps = append(steps, wireStep{line: n})
		}
		prevSend = isSend
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case isSend:
			var fl frontendLine
			dec := json.NewDecoder(strings.NewReader(line[2:]))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&fl); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, n, err)
			}
			if _, err := fl.message(); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, n, err)
			}
			steps[len(steps)-1].send = append(steps[len(steps)-1].send, fl)
		case strings.HasPrefix(line, "< "):
			if len(steps) == 0 {
				return nil, fmt.Errorf("%s:%d: expectation before anything was sent", path, n)
			}
			norm, err := normalizeJSON(line[2:])
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, n, err)
			}
			steps[len(steps)-1].expect = append(steps[len(steps)-1].expect, norm)
		default:
			return nil, fmt.Errorf("%s:%d: a line starts with >, < or #", path, n)
		}
	}
	return steps, sc.Err()
}

// connectionClosed is the canonical form of the server closing the
// connection; no more messages follow it.
const connectionClosed = `{"Type":"ConnectionClosed"}`

// wireClient is a logged-in protocol connection.
type wireClient struct {
	conn net.Conn
	fe   *pgproto3.Frontend
}

// dialWire connects and logs in as user to database, answering a
// password request with password.
func dialWire(addr, user, database, password string) (*wireClient, error) {
	nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	c := &wireClient{conn: nc, fe: pgproto3.NewFrontend(pgproto3.NewChunkReader(nc), nc)}
	_ = nc.SetDeadline(time.Now().Add(10 * time.Second))
	if err := c.fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
		Parameters: map[string]string{"user": user, "database": database, "application_name": "wire-script"}}); err != nil {
		nc.Close()
		return nil, err
	}
	for {
		msg, err := c.fe.Receive()
		if err != nil {
			nc.Close()
			return nil, fmt.Errorf("login: %w", err)
		}
		switch m := msg.(type) {
		case *pgproto3.AuthenticationCleartextPassword:
			if err := c.fe.Send(&pgproto3.PasswordMessage{Password: password}); err != nil {
				nc.Close()
				return nil, err
			}
		case *pgproto3.ErrorResponse:
			nc.Close()
			return nil, fmt.Errorf("login refused: %s %s", m.Code, m.Message)
		case *pgproto3.ReadyForQuery:
			_ = nc.SetDeadline(time.Time{})
			return c, nil
		}
	}
}

func (c *wireClient) Close() error {
	_ = c.fe.Send(&pgproto3.Terminate{})
	return c.conn.Close()
}

// exchange sends one step's batch in a single write and reads the reply:
// as many messages as the step expects, or with idle > 0 (recording)
// everything until the server has been silent that long. Extra messages
// surface in the next step, or in the final check of runScript.
func (c *wireClient) exchange(step wireStep, idle time.Duration) ([]string, error) {
	var buf []byte
	for _, fl := range step.send {
		msg, err := fl.message()
		if err != nil {
			return nil, err
		}
		if buf, err = msg.Encode(buf); err != nil {
			return nil, err
		}
	}
	_ = c.conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.conn.Write(buf); err != nil {
		return nil, err
	}
	var got []string
	for idle > 0 || len(got) < len(step.expect) {
		if idle > 0 {
			_ = c.conn.SetReadDeadline(time.Now().Add(idle))
		}
		msg, err := c.fe.Receive()
		if err != nil {
			var ne net.Error
			if idle > 0 && errors.As(err, &ne) && ne.Timeout() {
				return got, nil
			}
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				// The end of the conversation is part of it.
				return append(got, connectionClosed), nil
			}
			return got, fmt.Errorf("receive: %w", err)
		}
		if _, skip := msg.(*pgproto3.ParameterStatus); skip {
			continue
		}
		if _, skip := msg.(*pgproto3.NoticeResponse); skip {
			continue
		}
		s, err := canonical(msg)
		if err != nil {
			return got, err
		}
		got = append(got, s)
	}
	return got, nil
}

// recordScript rewrites a script's expectations with what the server
// answered: a tool for writing new scripts against PostgreSQL, whose
// output must still be read and checked by hand.
func recordScript(path string, c *wireClient) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	steps, err := readScript(path)
	if err != nil {
		return err
	}
	var out []string
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	si := -1
	flush := func() error {
		if si < 0 {
			return nil
		}
		got, err := c.exchange(steps[si], 300*time.Millisecond)
		if err != nil {
			return err
		}
		for _, g := range got {
			out = append(out, "< "+g)
		}
		return nil
	}
	inSend := false
	for _, line := range lines {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "> "):
			if !inSend {
				si++
				inSend = true
			}
			out = append(out, line)
		case strings.HasPrefix(t, "< "):
			if inSend {
				if err := flush(); err != nil {
					return err
				}
				inSend = false
			}
		default:
			if inSend {
				if err := flush(); err != nil {
					return err
				}
				inSend = false
			}
			out = append(out, line)
		}
	}
	if inSend {
		if err := flush(); err != nil {
			return err
		}
	}
	return os.WriteFile(path, []byte(strings.Join(out, "\n")+"\n"), 0o644)
}

// endsWithHangUp reports whether a step expects the server to close the
// connection after its reply.
func endsWithHangUp(step wireStep) bool {
	n := len(step.expect)
	return n > 0 && step.expect[n-1] == connectionClosed
}

package audit

import (
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// SinkRanger writes the log as Ranger audit events instead of SQE's own
// records (Open): one event per access decision, so that a team's Ranger
// audit tooling (Solr, HDFS or log-file consumers of Ranger's JSON) reads
// SQE's decisions beside its other services'.
const SinkRanger = "ranger"

// rangerRepoTypeHive is the repository type Ranger's audit gives the hive
// service, whose resources (database/table/column) and access types SQE's
// decisions use.
const rangerRepoTypeHive = 3

// rangerEvent is one event in Ranger's audit format: the fields and JSON
// names of Ranger's AuthzAuditEvent, with its date format.
type rangerEvent struct {
	RepoType      int      `json:"repoType"`
	Repo          string   `json:"repo"`
	ReqUser       string   `json:"reqUser"`
	EvtTime       string   `json:"evtTime"`
	Access        string   `json:"access"`
	Resource      string   `json:"resource"`
	ResType       string   `json:"resType"`
	Action        string   `json:"action"`
	Result        int      `json:"result"`
	Agent         string   `json:"agent"`
	Policy        int64    `json:"policy"`
	Reason        string   `json:"reason,omitempty"`
	Enforcer      string   `json:"enforcer"`
	Sess          string   `json:"sess,omitempty"`
	CliType       string   `json:"cliType"`
	CliIP         string   `json:"cliIP,omitempty"`
	ReqData       string   `json:"reqData,omitempty"`
	AgentHost     string   `json:"agentHost,omitempty"`
	LogType       string   `json:"logType"`
	ID            string   `json:"id"`
	SeqNum        int64    `json:"seq_num"`
	EventCount    int64    `json:"event_count"`
	EventDurMS    int64    `json:"event_dur_ms"`
	Tags          []string `json:"tags"`
	ClusterName   string   `json:"cluster_name,omitempty"`
	AdditionalInf string   `json:"additional_info,omitempty"`
}

// rangerTimeFormat is the date format of Ranger's audit JSON.
const rangerTimeFormat = "2006-01-02 15:04:05.000"

// rangerEvents turns a statement into one event per decision it needed.
// A statement that needed none (SET, BEGIN) makes no event, as a Ranger
// plugin audits only authorization checks.
func (a *Auditor) rangerEvents(st Statement, reqData string) []any {
	if len(st.Decisions) == 0 {
		return nil
	}
	id := st.RequestID
	if id == "" {
		id = uuid.NewString()
	}
	action := statementAction(st.Text)
	out := make([]any, len(st.Decisions))
	for i, d := range st.Decisions {
		result := 0
		if d.Allowed {
			result = 1
		}
		out[i] = rangerEvent{
			RepoType: rangerRepoTypeHive, Repo: a.service, ReqUser: st.Caller.User,
			EvtTime: st.Start.UTC().Format(rangerTimeFormat), Access: d.Access,
			Resource: d.Resource, ResType: d.ResourceType, Action: action, Result: result,
			Agent: "sqe", Policy: d.PolicyID, Reason: d.Reason, Enforcer: d.Enforcer,
			Sess: strconv.FormatInt(int64(st.Caller.SessionID), 10), CliType: "pgwire", CliIP: st.Caller.ClientAddr,
			ReqData: reqData, AgentHost: a.host, LogType: "RangerAudit",
			ID: id + "-" + strconv.Itoa(i), SeqNum: int64(i), EventCount: d.Count,
			EventDurMS: st.Duration.Milliseconds(), Tags: []string{}, ClusterName: a.cluster,
			AdditionalInf: `{"gate":"` + d.Gate + `"}`,
		}
	}
	return out
}

// rangerPrivilegeEvent is a GRANT, REVOKE, DENY or role statement as a
// Ranger event on its object.
func (a *Auditor) rangerPrivilegeEvent(c PrivilegeChange) rangerEvent {
	result := 0
	if c.Result == OutcomeOK {
		result = 1
	}
	kind, name, _ := strings.Cut(c.Object, " ")
	return rangerEvent{
		RepoType: rangerRepoTypeHive, Repo: a.service, ReqUser: c.Caller.User,
		EvtTime: c.Time.UTC().Format(rangerTimeFormat), Access: strings.ToLower(c.Action),
		Resource: strings.ReplaceAll(name, ".", "/"), ResType: "@" + strings.ToLower(kind), Action: strings.ToLower(c.Action),
		Result: result, Agent: "sqe", Policy: -1, Enforcer: "sqe", Reason: strings.Join(c.Privileges, ","),
		Sess: strconv.FormatInt(int64(c.Caller.SessionID), 10), CliType: "pgwire", CliIP: c.Caller.ClientAddr, AgentHost: a.host,
		LogType: "RangerAudit", ID: uuid.NewString() + "-0", EventCount: 1, Tags: []string{}, ClusterName: a.cluster,
	}
}

// statementAction is the statement's first word in lower case (select,
// insert, ...), Ranger's "action" of a hive request.
func statementAction(text string) string {
	f := strings.Fields(text)
	if len(f) == 0 {
		return ""
	}
	return strings.ToLower(strings.Trim(f[0], "(;"))
}

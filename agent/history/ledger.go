package history

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
)

// Ledger entry kinds: every decision about a call, and every change of a
// rule or of the ledger itself.
const (
	LedgerApproved       = "approved"        // the person approved once
	LedgerApprovedEdited = "approved-edited" // approved with changed arguments (Diff)
	LedgerAllowedByRule  = "allowed-by-rule" // a remembered rule let the call run (RuleID)
	LedgerDenied         = "denied"          // the person declined (Reason)
	LedgerDeniedByRule   = "denied-by-rule"  // a deny rule refused the call (RuleID, Reason)
	LedgerAnswered       = "answered"        // a question was answered (Arguments: the answer, secrets redacted)
	LedgerClientAction   = "client-action"   // a window-run tool finished (Outcome)
	LedgerSampling       = "sampling"        // an MCP server's sampling request was decided
	LedgerURLConfirm     = "url-confirmation"
	LedgerStopped        = "stopped" // Stop while a decision was pending
	LedgerOutcome        = "outcome" // what an approved call did: Outcome ran, failed, interrupted
	LedgerRuleCreated    = "rule-created"
	LedgerRuleChanged    = "rule-changed"
	LedgerRuleExpired    = "rule-expired"
	LedgerRuleRevoked    = "rule-revoked"
	LedgerCleared        = "ledger-cleared" // the first entry after the person cleared the ledger
	LedgerChatDeleted    = "chat-deleted"   // a chat was deleted: its entries' arguments are now their shape
)

// Transports a decision arrived by.
const (
	TransportWindow  = "window"
	TransportBrowser = "browser"
	TransportAGUI    = "agui"
	TransportRuntime = "runtime" // decided without a person: a rule, an expiry
)

// LedgerEntry is one record of the decision ledger. Seq, PrevHash, Hash
// and ArgsHash are set by the store as it appends.
type LedgerEntry struct {
	Seq       int64  `json:"seq"`
	At        int64  `json:"at"`
	Kind      string `json:"kind"`
	ThreadID  string `json:"threadId,omitempty"`
	RunID     string `json:"runId,omitempty"`
	CallID    string `json:"callId,omitempty"`
	Tool      string `json:"tool,omitempty"`
	Server    string `json:"server,omitempty"`
	Transport string `json:"transport,omitempty"`
	RuleID    string `json:"ruleId,omitempty"`
	// Arguments are the call's arguments (or a question's answer, or a
	// rule) as JSON; Diff the edit the person made. Redacted: both were
	// replaced by their shape (the chat was deleted); ArgsHash still
	// names what they were.
	Arguments string `json:"arguments,omitempty"`
	Diff      string `json:"diff,omitempty"`
	Redacted  bool   `json:"redacted,omitempty"`
	ArgsHash  string `json:"argsHash,omitempty"`
	Reason    string `json:"reason,omitempty"`
	Outcome   string `json:"outcome,omitempty"`
	PrevHash  string `json:"prevHash"`
	Hash      string `json:"hash"`
}

// LedgerFilter selects ledger entries (zero fields match everything).
type LedgerFilter struct {
	ThreadID string `json:"threadId,omitempty"`
	Tool     string `json:"tool,omitempty"`
	Server   string `json:"server,omitempty"`
	Kind     string `json:"kind,omitempty"`
	Since    int64  `json:"since,omitempty"`
	Until    int64  `json:"until,omitempty"`
	// Search matches a substring of the tool, arguments, reason or outcome.
	Search string `json:"search,omitempty"`
	// Before pages backwards: entries with Seq below it (0: the newest).
	Before int64 `json:"before,omitempty"`
	Limit  int   `json:"limit,omitempty"`
}

// Redacted stands for a secret value in the ledger.
const Redacted = "[redacted]"

// secretParts are what a secret field's name contains (lower case, with
// separators removed); secretWords are short names that must be whole.
var (
	secretParts = []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "credential", "privatekey", "cookie", "sessionid", "authorization"}
	secretWords = map[string]bool{"pass": true, "pin": true, "otp": true, "cvv": true, "ssn": true, "key": true, "auth": true}
	nameSepRE   = regexp.MustCompile(`[^a-z0-9]+`)
)

// LooksSecret reports whether a field name reads like a secret's
// ("password", "api_key", "GITHUB_TOKEN", "pin"; not "author").
func LooksSecret(name string) bool {
	lower := strings.ToLower(name)
	joined := nameSepRE.ReplaceAllString(lower, "")
	for _, p := range secretParts {
		if strings.Contains(joined, p) {
			return true
		}
	}
	for _, w := range nameSepRE.Split(lower, -1) {
		if secretWords[w] {
			return true
		}
	}
	return false
}

// RedactSecrets returns the JSON value v with every string whose schema
// says format: password, or whose field name LooksSecret, replaced by
// Redacted. schema may be nil. Unparsable JSON is returned as its shape
// of nothing: Redacted.
func RedactSecrets(v json.RawMessage, schema json.RawMessage) json.RawMessage {
	var val any
	if json.Unmarshal(v, &val) != nil {
		b, _ := json.Marshal(Redacted)
		return b
	}
	var sch any
	_ = json.Unmarshal(schema, &sch)
	out, _ := json.Marshal(redactValue(val, sch, false))
	return out
}

func redactValue(v any, schema any, secret bool) any {
	sm, _ := schema.(map[string]any)
	if f, _ := sm["format"].(string); f == "password" {
		secret = true
	}
	switch x := v.(type) {
	case map[string]any:
		props, _ := sm["properties"].(map[string]any)
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = redactValue(e, props[k], secret || LooksSecret(k))
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = redactValue(e, sm["items"], secret)
		}
		return out
	case string, float64, bool:
		if secret {
			return Redacted
		}
	}
	return v
}

// Shape returns the JSON text s with every value replaced by its type
// (keys kept, sorted): what a deleted chat's ledger entries keep.
func Shape(s string) string {
	if s == "" {
		return ""
	}
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return `"<text>"`
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // "<string>", readable
	_ = enc.Encode(shapeOf(v))
	return strings.TrimSuffix(b.String(), "\n")
}

func shapeOf(v any) any {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(map[string]any, len(x))
		for _, k := range keys {
			out[k] = shapeOf(x[k])
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = shapeOf(e)
		}
		return out
	case string:
		return "<string>"
	case float64:
		return "<number>"
	case bool:
		return "<bool>"
	}
	return nil
}

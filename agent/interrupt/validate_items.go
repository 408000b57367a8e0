package interrupt

import (
	"encoding/json"
	"fmt"
)

// generic validates a generic record (§12.3 step 3.6).
func (v *batchValidator) generic(p Pending, entry ResumeEntry, schemaOK bool) {
	id, b := p.Descriptor.ID, p.Binding
	var schema json.RawMessage
	if req := p.Request; req != nil {
		if !b.FirstParty() || b.DefinitionID != req.Definition.ID || b.Key != req.Key {
			v.item(id, CodeStale, SourceServer, fmt.Sprintf("Generic interrupt %s has stale definition metadata.", id), nil)
			return
		}
		resp, payload, err := req.Definition.schemas()
		if err != nil || hashOf(resp) != b.ResponseSchemaHash || hashOf(payload) != b.PayloadSchemaHash {
			v.item(id, CodeStale, SourceServer, fmt.Sprintf("Generic interrupt %s does not match its definition.", id), nil)
			return
		}
		schema = req.Definition.ResponseSchema
	} else if schemaOK {
		schema = p.Descriptor.ResponseSchema
	}
	if entry.Status == StatusCancelled {
		if entry.Payload != nil {
			v.item(id, CodeInvalidPayload, SourceClient, fmt.Sprintf("Cancelled interrupt %s must not include a payload.", id), nil)
			return
		}
		v.state.GenericInterrupts[id] = GenericResolution{InterruptID: id, Status: StatusCancelled}
		return
	}
	if p.Request != nil && schema == nil {
		v.item(id, CodeInvalidResponseSchema, SourceServer, fmt.Sprintf("Interrupt %s has no response schema.", id), nil)
		return
	}
	if schema != nil && !v.check(id, schema, entry.Payload, CodeInvalidPayload,
		fmt.Sprintf("Interrupt %s payload is invalid: ", id), fmt.Sprintf("Interrupt %s payload", id)) {
		return
	}
	v.state.GenericInterrupts[id] = GenericResolution{InterruptID: id, Status: StatusResolved, Payload: compact(entry.Payload)}
}

func hashOf(s *DefinitionSchema) string {
	if s == nil {
		return ""
	}
	return s.Hash
}

// tool validates a tool-approval or client-tool-execution record (§12.3
// steps 3.7–3.11).
func (v *batchValidator) tool(p Pending, entry ResumeEntry, schemaOK bool) {
	id, b := p.Descriptor.ID, p.Binding
	if entry.Status == StatusCancelled {
		// Accepted before the tool lookup and drift checks (PR #1217).
		if entry.Payload != nil {
			v.item(id, CodeInvalidPayload, SourceClient, fmt.Sprintf("Cancelled interrupt %s must not include a payload.", id), nil)
			return
		}
		v.state.CancelledToolCallIDs = append(v.state.CancelledToolCallIDs, b.ToolCallID)
		return
	}
	tool, ok := v.tools[b.ToolName]
	if !ok {
		v.item(id, CodeStale, SourceServer, fmt.Sprintf("Tool %s is unavailable for interrupt %s.", b.ToolName, id), nil)
		return
	}
	if b.Kind == KindClientToolExecution {
		if h, err := HashSchemaInput(tool.OutputSchema); err != nil || h != b.OutputSchemaHash {
			v.item(id, CodeStale, SourceServer, fmt.Sprintf("Tool %s output schema has changed.", b.ToolName), nil)
			return
		}
		v.clientToolOutput(p, tool, entry, schemaOK)
		return
	}
	norm, err := NormalizeApprovalSchema(tool.ApprovalSchema, tool.InputSchema)
	if err != nil {
		v.item(id, CodeStale, SourceServer, fmt.Sprintf("Tool %s approval schema is unavailable.", b.ToolName), nil)
		return
	}
	inputHash, err := HashSchemaInput(tool.InputSchema)
	if err != nil || inputHash != b.InputSchemaHash || norm.ApprovalSchemaHash != b.ApprovalSchemaHash ||
		norm.ResponseSchemaHash != b.ResponseSchemaHash {
		v.item(id, CodeStale, SourceServer, fmt.Sprintf("Tool %s approval schema has changed.", b.ToolName), nil)
		return
	}
	v.approval(p, tool, entry)
}

// clientToolOutput validates a client tool's reported output (step 3.10).
// {"error": "<text>"} (the stock client's report of a failed execution) is
// accepted without checking the output schema.
func (v *batchValidator) clientToolOutput(p Pending, tool Tool, entry ResumeEntry, schemaOK bool) {
	id, b := p.Descriptor.ID, p.Binding
	prefix := fmt.Sprintf("Tool %s output is invalid: ", b.ToolName)
	label := fmt.Sprintf("Tool %s output", b.ToolName)
	if entry.Payload == nil {
		v.item(id, CodeInvalidToolOutput, SourceClient, prefix+"an output is required", nil)
		return
	}
	if !isExecutionError(entry.Payload) {
		checked := ""
		if schemaOK && p.Descriptor.ResponseSchema != nil {
			if !v.check(id, p.Descriptor.ResponseSchema, entry.Payload, CodeInvalidToolOutput, prefix, label) {
				return
			}
			checked = b.ResponseSchemaHash
		}
		if tool.OutputSchema != nil && b.OutputSchemaHash != checked {
			if !v.check(id, tool.OutputSchema, entry.Payload, CodeInvalidToolOutput, prefix, label) {
				return
			}
		}
	}
	v.state.ClientToolResults[b.ToolCallID] = compact(entry.Payload)
}

func isExecutionError(payload json.RawMessage) bool {
	m, isObject, err := parseMembers(payload)
	if err != nil || !isObject || len(m) != 1 {
		return false
	}
	_, ok := strMember(m, "error")
	return ok
}

// approval validates an approval decision (step 3.11).
func (v *batchValidator) approval(p Pending, tool Tool, entry ResumeEntry) {
	id, b := p.Descriptor.ID, p.Binding
	var a Approval
	var members map[string]json.RawMessage
	parsed, _ := Parse(entry.Payload) // nil payload parses as an error: not a decision
	switch x := parsed.(type) {
	case bool:
		a.Approved = x
	case map[string]any:
		approved, ok := x["approved"].(bool)
		if !ok {
			v.item(id, CodeInvalidPayload, SourceClient, fmt.Sprintf("Approval %s must be a boolean or decision envelope.", id), nil)
			return
		}
		a.Approved, a.Envelope = approved, true
		members, _, _ = parseMembers(entry.Payload)
	default:
		v.item(id, CodeInvalidPayload, SourceClient, fmt.Sprintf("Approval %s must be a boolean or decision envelope.", id), nil)
		return
	}
	if a.Envelope {
		if raw, present := members["editedArgs"]; present && a.Approved {
			a.EditedArgs = compact(raw)
		}
		if raw, present := members["payload"]; present {
			a.Payload = compact(raw)
		}
	}
	before := len(v.items)
	if a.EditedArgs != nil {
		if tool.InputSchema == nil {
			v.item(id, CodeInvalidEditedArgs, SourceClient, fmt.Sprintf("Approval %s cannot edit arguments without an input schema.", id), nil)
		} else {
			v.check(id, tool.InputSchema, a.EditedArgs, CodeInvalidEditedArgs,
				fmt.Sprintf("Approval %s edited arguments are invalid: ", id), fmt.Sprintf("Approval %s edited arguments", id))
		}
	}
	branch, decision := tool.ApprovalSchema.Reject, "reject"
	if a.Approved {
		branch, decision = tool.ApprovalSchema.Approve, "approve"
	}
	if branch != nil {
		if a.Payload == nil {
			v.item(id, CodeInvalidPayload, SourceClient, fmt.Sprintf("Approval %s requires a payload for the %s decision.", id, decision), nil)
		} else {
			v.check(id, branch, a.Payload, CodeInvalidPayload,
				fmt.Sprintf("Approval %s payload is invalid: ", id), fmt.Sprintf("Approval %s payload", id))
		}
	}
	if len(v.items) > before {
		return
	}
	v.state.Approvals[b.ToolCallID] = a
	if !a.Approved {
		v.state.DeniedToolResults[b.ToolCallID] = a.Payload
	}
}

// check validates value against a raw JSON Schema, reporting each issue as
// an item error (prefix + issue, with its path) and a schema that does not
// compile as invalid-response-schema. It reports whether value passed.
func (v *batchValidator) check(id string, schema, value json.RawMessage, code ErrorCode, prefix, label string) bool {
	s, err := v.opts.Schemas.Compile(schema)
	if err != nil {
		v.item(id, CodeInvalidResponseSchema, SourceServer, fmt.Sprintf("%s could not be validated: %v", label, err), nil)
		return false
	}
	var issues []Issue
	if value == nil {
		issues = []Issue{{Message: "a value is required"}}
	} else if issues, err = s.Validate(value); err != nil {
		v.item(id, code, SourceClient, prefix+err.Error(), nil)
		return false
	}
	for _, is := range issues {
		var path []any
		if len(is.Path) > 0 {
			path = is.Path
		}
		v.item(id, code, SourceClient, prefix+is.Message, path)
	}
	return len(issues) == 0
}

package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/interrupt"
	"github.com/juncture-app/juncture/agent/model"
)

// ask_user: the built-in tool that asks the person a typed question.
const (
	AskUserTool         = "ask_user"
	AskUserDefinitionID = "juncture.ask_user"
	// ResultQuestionDismissed is the tool result when the person dismissed
	// the question.
	ResultQuestionDismissed = "Interrupted: the person dismissed the question without answering."
)

var askUserSpec = model.ToolSpec{
	Name: AskUserTool,
	Description: "Ask the person a question and wait for the answer. Use options for a choice (multiple: true to allow several), " +
		"or schema (a small JSON Schema with \"type\":\"object\") for a structured answer; otherwise the answer is free text.",
	Parameters: json.RawMessage(`{"type":"object","properties":{` +
		`"question":{"type":"string","description":"The question, as the person reads it."},` +
		`"options":{"type":"array","items":{"type":"string"},"description":"Choices the person picks from."},` +
		`"multiple":{"type":"boolean","description":"Allow several options."},` +
		`"schema":{"type":"object","description":"A JSON Schema (type object) the answer must satisfy."}` +
		`},"required":["question"],"additionalProperties":false}`),
}

type askArgs struct {
	Question string          `json:"question"`
	Options  []string        `json:"options"`
	Multiple bool            `json:"multiple"`
	Schema   json.RawMessage `json:"schema"`
}

// askUserSchema checks the arguments of an ask_user call and returns the
// response schema of its question, or an error the model can read.
func (rt *Runtime) askUserSchema(arguments string) (askArgs, json.RawMessage, error) {
	var a askArgs
	dec := json.NewDecoder(strings.NewReader(strings.TrimSpace(arguments)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return a, nil, fmt.Errorf("ask_user arguments are invalid: %w", err)
	}
	if strings.TrimSpace(a.Question) == "" {
		return a, nil, fmt.Errorf("ask_user needs a non-empty question")
	}
	if len(a.Schema) > 0 && !bytes.Equal(bytes.TrimSpace(a.Schema), []byte("null")) {
		if len(a.Options) > 0 {
			return a, nil, fmt.Errorf("ask_user takes either options or schema, not both")
		}
		if _, err := interrupt.CheckModelSchema(a.Schema, interrupt.DefaultModelSchemaLimits, rt.schemas); err != nil {
			return a, nil, fmt.Errorf("ask_user schema is invalid: %w", err)
		}
		var buf bytes.Buffer
		c, err := interrupt.CanonicalJSON(json.RawMessage(a.Schema))
		if err != nil {
			return a, nil, fmt.Errorf("ask_user schema is invalid: %w", err)
		}
		buf.WriteString(c)
		return a, json.RawMessage(buf.Bytes()), nil
	}
	if len(a.Options) == 0 {
		if a.Multiple {
			return a, nil, fmt.Errorf("ask_user: multiple needs options")
		}
		return a, json.RawMessage(`{"type":"string","minLength":1}`), nil
	}
	seen := map[string]bool{}
	for _, o := range a.Options {
		if strings.TrimSpace(o) == "" || seen[o] {
			return a, nil, fmt.Errorf("ask_user options must be distinct, non-empty strings")
		}
		seen[o] = true
	}
	if len(a.Options) > 50 {
		return a, nil, fmt.Errorf("ask_user takes at most 50 options")
	}
	enum, _ := json.Marshal(a.Options)
	if a.Multiple {
		return a, json.RawMessage(`{"type":"array","items":{"type":"string","enum":` + string(enum) + `},"minItems":1,"uniqueItems":true}`), nil
	}
	return a, json.RawMessage(`{"type":"string","enum":` + string(enum) + `}`), nil
}

// askDescriptor builds the generic interrupt of an ask_user call.
func (tr *turn) askDescriptor(call history.ToolCall) (interrupt.Descriptor, error) {
	a, schema, err := tr.rt.askUserSchema(call.Arguments)
	if err != nil {
		return interrupt.Descriptor{}, err
	}
	def := interrupt.Definition{ID: AskUserDefinitionID, ResponseSchema: schema}
	d, err := tr.genericDescriptor(def, call.ID, &Question{Reason: "question", Message: a.Question})
	if err != nil {
		return interrupt.Descriptor{}, fmt.Errorf("ask_user: %w", err)
	}
	d.ToolCallID = call.ID
	return d, nil
}

// answerText is the tool result the model reads for an ask_user answer:
// a string answer as is, anything else as JSON.
func answerText(payload json.RawMessage) string {
	var s string
	if json.Unmarshal(payload, &s) == nil {
		return s
	}
	var buf bytes.Buffer
	if json.Compact(&buf, payload) == nil {
		return buf.String()
	}
	return string(payload)
}

// note saves a short assistant message and streams it.
func (tr *turn) note(text string) {
	rt, tid := tr.rt, tr.run.ThreadID
	m := history.Message{ID: NewID("msg"), ThreadID: tid, RunID: tr.run.ID, Role: history.RoleAssistant, Content: text, Status: history.StatusComplete, CreatedAt: rt.now()}
	if err := rt.st.PutMessage(tr.save, m); err != nil {
		rt.log.Error("saving a note", "thread", tid, "err", err)
		return
	}
	rt.emit(tid, agui.NewTextStart(m.ID))
	rt.emit(tid, agui.NewTextContent(m.ID, text))
	rt.emit(tid, agui.NewTextEnd(m.ID))
}

package openai

import (
	"encoding/json"
	"errors"

	"github.com/juncture-app/juncture/agent/model"
)

// The encoding/json decoder of a chunk: the reference scanChunk is held to
// (compareWithJSON, FuzzScanChunk), and the "json" candidate of the
// benchmarks. It is not used in production.

// chunk is the part of a chat.completion.chunk the product uses. Every
// other field is skipped.
type chunk struct {
	Choices []struct {
		Delta struct {
			Content          chunkContent     `json:"content"`           // a string, or parts (Mistral)
			ReasoningContent string           `json:"reasoning_content"` // vLLM, llama.cpp, DeepSeek
			Reasoning        string           `json:"reasoning"`         // Ollama, OpenRouter
			ReasoningDetails reasoningDetails `json:"reasoning_details"` // OpenRouter
			ToolCalls        []struct {
				Index    int    `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *chunkUsage `json:"usage"` // null (OpenAI, on every chunk but the last) stays nil
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// chunkContent is delta.content: a string (the answer's text), or an array
// of parts (Mistral's magistral models): "text" parts are text, "thinking"
// parts reasoning. null leaves it as it is, a string or array replaces it,
// and any other type fails the chunk. A part of an unexpected shape (not
// an object, or a type, text or thinking of the wrong type) is skipped, as
// is a part of another type.
type chunkContent struct {
	text, thinking string
}

func (c *chunkContent) UnmarshalJSON(b []byte) error {
	switch b[0] {
	case 'n':
		return nil
	case '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*c = chunkContent{text: s}
		return nil
	case '[':
	default:
		return errors.New("json: cannot unmarshal content: not a string or an array")
	}
	var parts []json.RawMessage
	if err := json.Unmarshal(b, &parts); err != nil {
		return err
	}
	*c = chunkContent{}
	for _, raw := range parts {
		var p struct {
			Type     string        `json:"type"`
			Text     string        `json:"text"`
			Thinking thinkingValue `json:"thinking"`
		}
		if json.Unmarshal(raw, &p) != nil {
			continue
		}
		switch p.Type {
		case "text":
			c.text += p.Text
		case "thinking":
			c.thinking += string(p.Thinking)
		}
	}
	return nil
}

// thinkingValue is a thinking part's thinking: an array of text parts
// (Mistral), or a string. null and values of other types leave it as it
// is; parts of an unexpected shape are skipped.
type thinkingValue string

func (t *thinkingValue) UnmarshalJSON(b []byte) error {
	switch b[0] {
	case '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = thinkingValue(s)
	case '[':
		var parts []json.RawMessage
		if err := json.Unmarshal(b, &parts); err != nil {
			return err
		}
		var out string
		for _, raw := range parts {
			var p struct {
				Type string `json:"type"`
				Text string `json:"text"`
			}
			if json.Unmarshal(raw, &p) == nil && p.Type == "text" {
				out += p.Text
			}
		}
		*t = thinkingValue(out)
	}
	return nil
}

// reasoningDetails is OpenRouter's delta.reasoning_details, joined: the
// text of "reasoning.text" details and the summary of "reasoning.summary"
// ones ("reasoning.encrypted" carries nothing to show). An array replaces
// it; null and values of other types leave it as it is; details of an
// unexpected shape are skipped.
type reasoningDetails string

func (r *reasoningDetails) UnmarshalJSON(b []byte) error {
	if b[0] != '[' {
		return nil
	}
	var details []json.RawMessage
	if err := json.Unmarshal(b, &details); err != nil {
		return err
	}
	var out string
	for _, raw := range details {
		var d struct {
			Type    string `json:"type"`
			Text    string `json:"text"`
			Summary string `json:"summary"`
		}
		if json.Unmarshal(raw, &d) != nil {
			continue
		}
		switch d.Type {
		case "reasoning.text":
			out += d.Text
		case "reasoning.summary":
			out += d.Summary
		}
	}
	*r = reasoningDetails(out)
	return nil
}

// chunkUsage decodes a usage object leniently: counts are read as numbers
// of any form, and a usage object of an unexpected shape is dropped rather
// than failing the chunk, since the answer matters more than its count.
type chunkUsage struct {
	u  model.Usage
	ok bool
}

func (cu *chunkUsage) UnmarshalJSON(b []byte) error {
	var raw struct {
		PromptTokens            float64 `json:"prompt_tokens"`
		CompletionTokens        float64 `json:"completion_tokens"`
		TotalTokens             float64 `json:"total_tokens"`
		CompletionTokensDetails *struct {
			ReasoningTokens float64 `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
	}
	if json.Unmarshal(b, &raw) != nil {
		*cu = chunkUsage{}
		return nil
	}
	cu.ok = true
	cu.u = model.Usage{PromptTokens: tokens(raw.PromptTokens), CompletionTokens: tokens(raw.CompletionTokens), TotalTokens: tokens(raw.TotalTokens)}
	if d := raw.CompletionTokensDetails; d != nil {
		cu.u.ReasoningTokens = tokens(d.ReasoningTokens)
	}
	return nil
}

// decodeChunk decodes one "data:" payload: the delta of choices[0] (other
// choices are ignored; n is never set), the usage, or the endpoint's error
// (which wins over everything else, as OpenRouter sends it next to a choice
// with finish_reason "error"). A payload that is not a valid chunk is an
// error.
func decodeChunk(b []byte) (model.Delta, *model.EndpointError, error) {
	var c chunk
	if err := json.Unmarshal(b, &c); err != nil {
		return model.Delta{}, nil, err
	}
	if c.Error != nil {
		return model.Delta{}, &model.EndpointError{Message: c.Error.Message}, nil
	}
	var d model.Delta
	if c.Usage != nil && c.Usage.ok {
		u := c.Usage.u
		d.Usage = &u
	}
	if len(c.Choices) == 0 {
		return d, nil, nil // OpenAI's usage chunk, or nothing
	}
	ch := &c.Choices[0]
	d.Text, d.FinishReason = ch.Delta.Content.text, ch.FinishReason
	for _, r := range []string{ch.Delta.ReasoningContent, ch.Delta.Reasoning, string(ch.Delta.ReasoningDetails), ch.Delta.Content.thinking} {
		if d.Reasoning == "" {
			d.Reasoning = r
		}
	}
	if n := len(ch.Delta.ToolCalls); n > 0 {
		d.ToolCalls = make([]model.ToolCallDelta, n)
		for i, tc := range ch.Delta.ToolCalls {
			d.ToolCalls[i] = model.ToolCallDelta{Index: tc.Index, ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments}
		}
	}
	return d, nil, nil
}

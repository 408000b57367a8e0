package openai

import (
	"encoding/json"

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
			Content          string `json:"content"`
			ReasoningContent string `json:"reasoning_content"` // vLLM, llama.cpp, DeepSeek
			Reasoning        string `json:"reasoning"`         // Ollama, OpenRouter
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
	d.Text, d.FinishReason, d.Reasoning = ch.Delta.Content, ch.FinishReason, ch.Delta.ReasoningContent
	if d.Reasoning == "" {
		d.Reasoning = ch.Delta.Reasoning
	}
	if n := len(ch.Delta.ToolCalls); n > 0 {
		d.ToolCalls = make([]model.ToolCallDelta, n)
		for i, tc := range ch.Delta.ToolCalls {
			d.ToolCalls[i] = model.ToolCallDelta{Index: tc.Index, ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments}
		}
	}
	return d, nil, nil
}

package fakellm

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
)

// Request is a chat completions request as the server received it.
type Request struct {
	Model    string
	Stream   bool
	Messages []RequestMessage
	Tools    []RequestTool
	// IncludeUsage reports stream_options.include_usage.
	IncludeUsage bool
	// Header is the HTTP request header (Authorization included).
	Header http.Header
	// Raw is the request body as sent.
	Raw json.RawMessage
}

// RequestMessage is one message of a request. Content given as an array of
// parts is flattened to its text parts joined by "\n"; the URLs of its
// image_url parts are kept in Images; other parts (audio) are dropped.
type RequestMessage struct {
	Role       string
	Content    string
	Images     []string // image_url URLs (data: URLs included), in order
	ToolCallID string
	Name       string
	ToolCalls  []RequestToolCall
	// ReasoningContent is the message's reasoning_content, or its
	// reasoning field when reasoning_content is absent.
	ReasoningContent string
}

// RequestToolCall is a tool call of an assistant message in a request.
type RequestToolCall struct{ ID, Name, Arguments string }

// RequestTool is a function tool offered by a request.
type RequestTool struct {
	Name        string
	Description string
	Parameters  json.RawMessage
}

// LastMessage returns the last message of the request, or the zero message.
func (r Request) LastMessage() RequestMessage {
	if len(r.Messages) == 0 {
		return RequestMessage{}
	}
	return r.Messages[len(r.Messages)-1]
}

// LastUser returns the content of the last user message, or "".
func (r Request) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// HasTool reports whether the request offers a tool with that name.
func (r Request) HasTool(name string) bool {
	for _, t := range r.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

type wireRequest struct {
	Model         string `json:"model"`
	Stream        bool   `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	Messages []wireMessage `json:"messages"`
	Tools    []struct {
		Type     string `json:"type"`
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
}

type wireMessage struct {
	Role             string          `json:"role"`
	Content          json.RawMessage `json:"content"`
	ToolCallID       string          `json:"tool_call_id"`
	Name             string          `json:"name"`
	ReasoningContent string          `json:"reasoning_content"`
	Reasoning        string          `json:"reasoning"`
	ToolCalls        []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// parseRequest decodes a chat completions request body.
func parseRequest(body []byte, header http.Header) (Request, error) {
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return Request{}, err
	}
	req := Request{
		Model:        w.Model,
		Stream:       w.Stream,
		IncludeUsage: w.StreamOptions != nil && w.StreamOptions.IncludeUsage,
		Header:       header,
		Raw:          json.RawMessage(body),
	}
	for _, m := range w.Messages {
		rm := RequestMessage{
			Role:             m.Role,
			Content:          messageText(m.Content),
			Images:           messageImages(m.Content),
			ToolCallID:       m.ToolCallID,
			Name:             m.Name,
			ReasoningContent: m.ReasoningContent,
		}
		if rm.ReasoningContent == "" {
			rm.ReasoningContent = m.Reasoning
		}
		for _, tc := range m.ToolCalls {
			rm.ToolCalls = append(rm.ToolCalls, RequestToolCall{
				ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments,
			})
		}
		req.Messages = append(req.Messages, rm)
	}
	for _, t := range w.Tools {
		req.Tools = append(req.Tools, RequestTool{
			Name:        t.Function.Name,
			Description: t.Function.Description,
			Parameters:  t.Function.Parameters,
		})
	}
	return req, nil
}

// messageImages returns the URLs of content given as parts that are
// image_url parts.
func messageImages(raw json.RawMessage) []string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	var parts []struct {
		Type     string `json:"type"`
		ImageURL struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	_ = json.Unmarshal(raw, &parts)
	var urls []string
	for _, p := range parts {
		if p.Type == "image_url" && p.ImageURL.URL != "" {
			urls = append(urls, p.ImageURL.URL)
		}
	}
	return urls
}

// messageText flattens message content given as a string or as an array of
// content parts.
func messageText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		_ = json.Unmarshal(raw, &s)
		return s
	case '[':
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		_ = json.Unmarshal(raw, &parts)
		var texts []string
		for _, p := range parts {
			if p.Type == "text" || (p.Type == "" && p.Text != "") {
				texts = append(texts, p.Text)
			}
		}
		return strings.Join(texts, "\n")
	}
	return ""
}

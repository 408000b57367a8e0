package model

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
)

// chunk is the part of a chat.completion.chunk the runtime uses. Decoding
// only these fields (instead of openai-go's full union types, ~17 µs a
// chunk) keeps the per-token cost of a stream to a few microseconds; the
// request, authentication and error responses still go through openai-go.
type chunk struct {
	Choices []struct {
		Delta struct {
			Content          string `json:"content"`
			ReasoningContent string `json:"reasoning_content"`
			Reasoning        string `json:"reasoning"`
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
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// sseReader reads "data:" frames of an SSE body.
type sseReader struct {
	body io.ReadCloser
	r    *bufio.Reader
	data []byte
}

func newSSEReader(resp *http.Response) *sseReader {
	return &sseReader{body: resp.Body, r: bufio.NewReaderSize(resp.Body, 64<<10)}
}

var errDone = errors.New("[DONE]")

// next returns the next frame's data; errDone at "[DONE]"; io.EOF (or a
// read error) when the body ends.
func (s *sseReader) next() ([]byte, error) {
	s.data = s.data[:0]
	for {
		line, err := s.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A frame line longer than the buffer: collect it whole.
			long := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				line, err = s.r.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil && len(line) == 0 {
			if len(s.data) > 0 && err == io.EOF {
				return s.data, nil
			}
			return nil, err
		}
		line = bytes.TrimRight(line, "\r\n")
		switch {
		case len(line) == 0:
			if len(s.data) > 0 {
				return s.data, nil
			}
		case bytes.HasPrefix(line, []byte("data:")):
			v := bytes.TrimPrefix(line[5:], []byte(" "))
			if bytes.Equal(v, []byte("[DONE]")) {
				return nil, errDone
			}
			if len(s.data) > 0 {
				s.data = append(s.data, '\n')
			}
			s.data = append(s.data, v...)
		}
		// event:, id:, retry: and comments are ignored.
		if err != nil {
			if len(s.data) > 0 {
				return s.data, nil
			}
			return nil, err
		}
	}
}

func decodeChunk(b []byte) (Delta, *EndpointError, error) {
	var c chunk
	if err := json.Unmarshal(b, &c); err != nil {
		return Delta{}, nil, err
	}
	if c.Error != nil {
		return Delta{}, &EndpointError{Message: c.Error.Message}, nil
	}
	if len(c.Choices) == 0 {
		return Delta{}, nil, nil // usage-only chunk
	}
	ch := c.Choices[0]
	d := Delta{Text: ch.Delta.Content, FinishReason: ch.FinishReason, Reasoning: ch.Delta.ReasoningContent}
	if d.Reasoning == "" {
		d.Reasoning = ch.Delta.Reasoning
	}
	for _, tc := range ch.Delta.ToolCalls {
		d.ToolCalls = append(d.ToolCalls, ToolCallDelta{Index: tc.Index, ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	return d, nil, nil
}

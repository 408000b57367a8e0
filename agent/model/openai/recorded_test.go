package openai

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/model"
)

// TestRecordedStreams decodes the recorded streams of real providers in
// testdata/streams (provenance in its README; the synthetic ones are
// marked there) through the real client against a loopback server that
// replays each file's bytes, and checks what the answer adds up to. The
// expected values were computed from the recordings with Python's json
// module, independently of this package's decoders.
func TestRecordedStreams(t *testing.T) {
	t.Parallel()
	type call struct{ ID, Name, Arguments string }
	cases := []struct {
		file         string
		text         string // the text, or its first 40 bytes when longer than 60
		textLen      int
		reasoning    string // likewise
		reasoningLen int
		calls        []call
		finish       string // the last finish_reason
		usage        *model.Usage
		cut          bool   // the stream ends in a Cut error
		errMsg       string // the stream ends in this endpoint error (not retryable)
	}{
		{file: "openai-cut", text: "", textLen: 0, reasoning: "", reasoningLen: 0, calls: []call{{ID: "call_7kE4IjtnwXcGbX6hDM7xFu8T", Name: "weather", Arguments: "{\"location\":\"Flor"}}, finish: "", usage: nil, cut: true},
		{file: "openrouter-midstream-error", text: "Hel", textLen: 3, reasoning: "", reasoningLen: 0, calls: nil, finish: "", usage: nil, errMsg: "Provider disconnected unexpectedly"},
		{file: "avian-reasoning-details-tool-call", text: "   ", textLen: 3, reasoning: "I need to get the weather information fo", reasoningLen: 133, calls: []call{{ID: "functions.weather:0", Name: "weather", Arguments: "{\"location\": \"Florence\"}"}}, finish: "tool_calls", usage: &model.Usage{PromptTokens: 76, CompletionTokens: 47, TotalTokens: 123, ReasoningTokens: 34}, cut: false},
		{file: "cerebras-no-done", text: "", textLen: 0, reasoning: "", reasoningLen: 0, calls: []call{{ID: "27781e665", Name: "weather", Arguments: "{\"location\": \"Florence,Italy\"}"}}, finish: "tool_calls", usage: &model.Usage{PromptTokens: 277, CompletionTokens: 25, TotalTokens: 302, ReasoningTokens: 0}, cut: false},
		{file: "groq-tool-call", text: "I'll check the weather in Florence, Italy for you.", textLen: 50, reasoning: "", reasoningLen: 0, calls: []call{{ID: "functions.weather:0", Name: "weather", Arguments: "{\"location\":\"Florence,Italy\"}"}}, finish: "tool_calls", usage: &model.Usage{PromptTokens: 93, CompletionTokens: 32, TotalTokens: 125, ReasoningTokens: 0}, cut: false},
		{file: "huggingface-reasoning-no-done", text: "\nI'll get the weather information for Fl", textLen: 63, reasoning: "The user is asking for weather informati", reasoningLen: 312, calls: []call{{ID: "75314f724", Name: "weather", Arguments: "{\"location\": \"Florence,Italy\"}"}}, finish: "tool_calls", usage: &model.Usage{PromptTokens: 187, CompletionTokens: 92, TotalTokens: 279, ReasoningTokens: 0}, cut: false},
		{file: "llamacpp-reasoning-tool-call", text: "", textLen: 0, reasoning: "We need to call function 'weather' with ", reasoningLen: 67, calls: []call{{ID: "1wNpqrejg1FCTjf6xq8JRCGKgWZO74AL", Name: "weather", Arguments: "{\"location\":\"Florence, Italy\"}"}}, finish: "tool_calls", usage: &model.Usage{PromptTokens: 139, CompletionTokens: 42, TotalTokens: 181, ReasoningTokens: 0}, cut: false},
		{file: "lmstudio-tool-call", text: "Let me check.", textLen: 13, reasoning: "", reasoningLen: 0, calls: []call{{ID: "512436617", Name: "get_weather", Arguments: "{\"city\":\"Paris\"}"}}, finish: "tool_calls", usage: &model.Usage{PromptTokens: 152, CompletionTokens: 24, TotalTokens: 176, ReasoningTokens: 0}, cut: false},
		{file: "mistral-magistral-content-parts", text: "It is 4.5.", textLen: 10, reasoning: "Half of 9 by 2 is 4.5.", reasoningLen: 22, calls: nil, finish: "stop", usage: &model.Usage{PromptTokens: 10, CompletionTokens: 38, TotalTokens: 48, ReasoningTokens: 0}, cut: false},
		{file: "ollama-parallel-tool-calls", text: "", textLen: 0, reasoning: "", reasoningLen: 0, calls: []call{{ID: "call_wteop8bt", Name: "run_command", Arguments: "{\"command\":\"ls\"}"}, {ID: "call_rk2xye1l", Name: "run_command", Arguments: "{\"command\":\"ls -l\"}"}}, finish: "tool_calls", usage: nil, cut: false},
		{file: "ollama-reasoning", text: "Two", textLen: 3, reasoning: "Okay, two.", reasoningLen: 10, calls: nil, finish: "stop", usage: &model.Usage{PromptTokens: 14, CompletionTokens: 9, TotalTokens: 23, ReasoningTokens: 0}, cut: false},
		{file: "openai-done-after-usage-no-finish", text: "Olá!", textLen: 5, reasoning: "", reasoningLen: 0, calls: nil, finish: "", usage: &model.Usage{PromptTokens: 20, CompletionTokens: 2, TotalTokens: 22, ReasoningTokens: 0}, cut: false},
		{file: "openai-text", text: "Olá!", textLen: 5, reasoning: "", reasoningLen: 0, calls: nil, finish: "stop", usage: &model.Usage{PromptTokens: 20, CompletionTokens: 2, TotalTokens: 22, ReasoningTokens: 0}, cut: false},
		{file: "openai-tool-call", text: "", textLen: 0, reasoning: "", reasoningLen: 0, calls: []call{{ID: "call_7kE4IjtnwXcGbX6hDM7xFu8T", Name: "weather", Arguments: "{\"location\":\"Florence, Italy\"}"}}, finish: "tool_calls", usage: &model.Usage{PromptTokens: 61, CompletionTokens: 16, TotalTokens: 77, ReasoningTokens: 0}, cut: false},
		{file: "openrouter-reasoning-details-only", text: "Oi!", textLen: 3, reasoning: "First, the core policies: No assistance ", reasoningLen: 203, calls: nil, finish: "stop", usage: &model.Usage{PromptTokens: 165, CompletionTokens: 167, TotalTokens: 332, ReasoningTokens: 165}, cut: false},
		{file: "openrouter-reasoning-encrypted", text: "Olá!", textLen: 5, reasoning: "", reasoningLen: 0, calls: nil, finish: "stop", usage: &model.Usage{PromptTokens: 11, CompletionTokens: 2, TotalTokens: 13, ReasoningTokens: 0}, cut: false},
		{file: "openrouter-reasoning-summary", text: "Oi!", textLen: 3, reasoning: "First, the core policies: No assistance ", reasoningLen: 203, calls: nil, finish: "stop", usage: &model.Usage{PromptTokens: 165, CompletionTokens: 167, TotalTokens: 332, ReasoningTokens: 165}, cut: false},
		{file: "openrouter-reasoning-text", text: " Oi! (Or \"Olá!\" which is slightly more formal)", textLen: 47, reasoning: " The user wants me to say \"hi\" in Portug", reasoningLen: 616, calls: nil, finish: "stop", usage: &model.Usage{PromptTokens: 21, CompletionTokens: 173, TotalTokens: 194, ReasoningTokens: 165}, cut: false},
		{file: "vllm-reasoning-continuous-usage", text: "4", textLen: 1, reasoning: "Simple sum", reasoningLen: 10, calls: nil, finish: "stop", usage: &model.Usage{PromptTokens: 12, CompletionTokens: 4, TotalTokens: 16, ReasoningTokens: 0}, cut: false},
		{file: "xai-reasoning-content", text: "Olá!", textLen: 5, reasoning: "First, the user said: \"Say hi in Portuguese.\"\n", reasoningLen: 46, calls: nil, finish: "stop", usage: &model.Usage{PromptTokens: 213, CompletionTokens: 2, TotalTokens: 413, ReasoningTokens: 198}, cut: false},
		{file: "zai-reasoning-content-tool-call", text: "I'll check the weather in Florence, Italy for you.", textLen: 50, reasoning: "The user is asking about the weather in ", reasoningLen: 298, calls: []call{{ID: "call_330c741a86144cb7a385bc6d", Name: "weather", Arguments: "{\"location\":\"Florence\"}"}}, finish: "tool_calls", usage: &model.Usage{PromptTokens: 173, CompletionTokens: 87, TotalTokens: 260, ReasoningTokens: 63}, cut: false},
	}
	seen := map[string]bool{}
	for _, tc := range cases {
		seen[tc.file+".sse"] = true
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			body, err := os.ReadFile(filepath.Join("testdata", "streams", tc.file+".sse"))
			if err != nil {
				t.Fatal(err)
			}
			c := testEndpoint(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = w.Write(body)
			})
			var text, reasoning, finish strings.Builder
			var calls []call
			var usage *model.Usage
			var streamErr error
			for d, err := range c.Deltas(context.Background(), hiReq) {
				if err != nil {
					streamErr = err
					break
				}
				text.WriteString(d.Text)
				reasoning.WriteString(d.Reasoning)
				if d.FinishReason != "" {
					finish.Reset()
					finish.WriteString(d.FinishReason)
				}
				if d.Usage != nil {
					usage = d.Usage
				}
				for _, f := range d.ToolCalls {
					for len(calls) <= f.Index {
						calls = append(calls, call{})
					}
					cl := &calls[f.Index]
					if cl.ID == "" {
						cl.ID = f.ID
					}
					if cl.Name == "" {
						cl.Name = f.Name
					}
					cl.Arguments += f.Arguments
				}
			}
			var ee *model.EndpointError
			switch {
			case tc.cut && !(errors.As(streamErr, &ee) && ee.Cut):
				t.Fatalf("error %v, want a cut stream", streamErr)
			case tc.errMsg != "" && !(errors.As(streamErr, &ee) && ee.Message == tc.errMsg && !ee.Retryable):
				t.Fatalf("error %v, want the endpoint's %q", streamErr, tc.errMsg)
			case !tc.cut && tc.errMsg == "" && streamErr != nil:
				t.Fatalf("error %v, want a complete answer", streamErr)
			}
			if got := text.String(); !strings.HasPrefix(got, tc.text) || len(got) != tc.textLen {
				t.Errorf("text %q (%d bytes), want %q… (%d bytes)", got, len(got), tc.text, tc.textLen)
			}
			if got := reasoning.String(); !strings.HasPrefix(got, tc.reasoning) || len(got) != tc.reasoningLen {
				t.Errorf("reasoning %q (%d bytes), want %q… (%d bytes)", got, len(got), tc.reasoning, tc.reasoningLen)
			}
			if len(calls) != len(tc.calls) || len(calls) > 0 && !reflect.DeepEqual(calls, tc.calls) {
				t.Errorf("tool calls %+v, want %+v", calls, tc.calls)
			}
			if finish.String() != tc.finish {
				t.Errorf("finish_reason %q, want %q", finish.String(), tc.finish)
			}
			if !reflect.DeepEqual(usage, tc.usage) {
				t.Errorf("usage %+v, want %+v", usage, tc.usage)
			}
		})
	}
	// Every recording is decoded and has its provenance written down.
	files, _ := filepath.Glob(filepath.Join("testdata", "streams", "*.sse"))
	readme, err := os.ReadFile(filepath.Join("testdata", "streams", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		if !seen[name] {
			t.Errorf("%s has no case in TestRecordedStreams", name)
		}
		if !strings.Contains(string(readme), "`"+name+"`") {
			t.Errorf("%s has no provenance in testdata/streams/README.md", name)
		}
	}
}

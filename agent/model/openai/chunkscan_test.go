package openai

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/model"
)

// Chunks as the servers send them (one "data:" payload each).
const (
	oaHead  = `{"id":"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG","object":"chat.completion.chunk","created":1741570283,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_eb9dce56a8",`
	oaFirst = oaHead + `"choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null}`
	oaText  = oaHead + `"choices":[{"index":0,"delta":{"content":" tok"},"logprobs":null,"finish_reason":null}],"usage":null}`
	oaTool  = oaHead + `"choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_DdmO9pD3xa9XTPNJ32zg2hcA","type":"function","function":{"name":"get_weather","arguments":""}}],"refusal":null},"logprobs":null,"finish_reason":null}],"usage":null}`
	oaArgs  = oaHead + `"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"location\":\"Par"}}]},"logprobs":null,"finish_reason":null}],"usage":null}`
	oaUsage = oaHead + `"choices":[],"usage":{"prompt_tokens":19,"completion_tokens":10,"total_tokens":29,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}`
)

type scanCase struct {
	name, in string
	want     model.Delta
	wantErr  string // endpoint error message
	emptyErr bool   // an endpoint error with an empty message
	bad      bool   // malformed
}

var scanCases = []scanCase{
	// OpenAI
	{name: "openai first", in: oaFirst},
	{name: "openai text", in: oaText, want: model.Delta{Text: " tok"}},
	{name: "openai logprobs", in: oaHead + `"choices":[{"index":0,"delta":{"content":"Hello"},"logprobs":{"content":[{"token":"Hello","logprob":-0.31725305,"bytes":[72,101,108,108,111],"top_logprobs":[{"token":"Hi","logprob":-1.3e-2,"bytes":[72,105]}]}],"refusal":null},"finish_reason":null}],"usage":null}`, want: model.Delta{Text: "Hello"}},
	{name: "openai tool call", in: oaTool, want: model.Delta{ToolCalls: []model.ToolCallDelta{{Index: 0, ID: "call_DdmO9pD3xa9XTPNJ32zg2hcA", Name: "get_weather"}}}},
	{name: "openai tool args", in: oaArgs, want: model.Delta{ToolCalls: []model.ToolCallDelta{{Arguments: `{"location":"Par`}}}},
	{name: "openai parallel tool calls", in: oaHead + `"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_2","type":"function","function":{"name":"b","arguments":"{}"}},{"index":2,"id":"call_3","type":"function","function":{"name":"c","arguments":""}}]},"logprobs":null,"finish_reason":null}]}`,
		want: model.Delta{ToolCalls: []model.ToolCallDelta{{Index: 1, ID: "call_2", Name: "b", Arguments: "{}"}, {Index: 2, ID: "call_3", Name: "c"}}}},
	{name: "openai refusal", in: oaHead + `"choices":[{"index":0,"delta":{"refusal":"I can't help with that."},"logprobs":null,"finish_reason":null}]}`},
	{name: "openai finish", in: oaHead + `"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}],"usage":null}`, want: model.Delta{FinishReason: "tool_calls"}},
	{name: "openai usage", in: oaUsage, want: model.Delta{Usage: &model.Usage{PromptTokens: 19, CompletionTokens: 10, TotalTokens: 29}}},
	{name: "openai error", in: `{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}`, wantErr: "The server had an error while processing your request. Sorry about that!"},
	{name: "openai n=2", in: oaHead + `"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null},{"index":1,"delta":{"content":"b","tool_calls":[{"index":0,"id":"x"}]},"finish_reason":"stop"}]}`, want: model.Delta{Text: "a"}},

	// vLLM
	{name: "vllm text", in: `{"id":"chatcmpl-8c1d4d2e3f0a4b7c9e2f1a0b3c4d5e6f","object":"chat.completion.chunk","created":1718000000,"model":"Qwen/Qwen2.5-7B-Instruct","choices":[{"index":0,"delta":{"content":" world"},"logprobs":null,"finish_reason":null}]}`, want: model.Delta{Text: " world"}},
	{name: "vllm reasoning_content", in: `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1718000000,"model":"deepseek-ai/DeepSeek-R1","choices":[{"index":0,"delta":{"reasoning_content":"Let me think"},"logprobs":null,"finish_reason":null}]}`, want: model.Delta{Reasoning: "Let me think"}},
	{name: "vllm tool call no arguments", in: `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1718000000,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"id":"chatcmpl-tool-9a8b7c","type":"function","index":0,"function":{"name":"get_weather"}}]},"logprobs":null,"finish_reason":null}]}`,
		want: model.Delta{ToolCalls: []model.ToolCallDelta{{ID: "chatcmpl-tool-9a8b7c", Name: "get_weather"}}}},
	{name: "vllm finish with stop_reason", in: `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1718000000,"model":"m","choices":[{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"stop","stop_reason":null}]}`, want: model.Delta{FinishReason: "stop"}},
	{name: "vllm usage", in: `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1718000000,"model":"m","choices":[],"usage":{"prompt_tokens":10,"total_tokens":20,"completion_tokens":10}}`, want: model.Delta{Usage: &model.Usage{PromptTokens: 10, CompletionTokens: 10, TotalTokens: 20}}},
	{name: "vllm error object", in: `{"error":{"object":"error","message":"This model's maximum context length is 32768 tokens.","type":"BadRequestError","param":null,"code":400}}`, wantErr: "This model's maximum context length is 32768 tokens."},
	{name: "vllm old top-level error", in: `{"object":"error","message":"boom","type":"InternalServerError","param":null,"code":500}`},

	// llama.cpp
	{name: "llama.cpp first", in: `{"choices":[{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}}],"created":1735000000,"id":"chatcmpl-Xq2","model":"gpt-3.5-turbo","system_fingerprint":"b4500-adc5dd92","object":"chat.completion.chunk"}`},
	{name: "llama.cpp text", in: `{"choices":[{"finish_reason":null,"index":0,"delta":{"content":"Hello"}}],"created":1735000000,"id":"chatcmpl-Xq2","model":"gpt-3.5-turbo","system_fingerprint":"b4500-adc5dd92","object":"chat.completion.chunk"}`, want: model.Delta{Text: "Hello"}},
	{name: "llama.cpp reasoning", in: `{"choices":[{"finish_reason":null,"index":0,"delta":{"reasoning_content":"Okay, the user"}}],"created":1735000000,"id":"chatcmpl-Xq2","model":"qwq","system_fingerprint":"b4500","object":"chat.completion.chunk"}`, want: model.Delta{Reasoning: "Okay, the user"}},
	{name: "llama.cpp tool call", in: `{"choices":[{"finish_reason":null,"index":0,"delta":{"tool_calls":[{"index":0,"id":"8Zkp2nQ","type":"function","function":{"name":"get_weather","arguments":"{\"location\":"}}]}}],"created":1735000000,"id":"chatcmpl-Xq2","model":"m","object":"chat.completion.chunk"}`,
		want: model.Delta{ToolCalls: []model.ToolCallDelta{{ID: "8Zkp2nQ", Name: "get_weather", Arguments: `{"location":`}}}},
	{name: "llama.cpp final with timings", in: `{"choices":[{"finish_reason":"stop","index":0,"delta":{}}],"created":1735000000,"id":"chatcmpl-Xq2","model":"m","system_fingerprint":"b4500","object":"chat.completion.chunk","usage":{"completion_tokens":5,"prompt_tokens":10,"total_tokens":15},"timings":{"prompt_n":10,"prompt_ms":12.3,"prompt_per_token_ms":1.23,"prompt_per_second":813.0081300813008,"predicted_n":5,"predicted_ms":50.1,"predicted_per_token_ms":10.02,"predicted_per_second":99.8003992015968}}`, want: model.Delta{FinishReason: "stop", Usage: &model.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}}},
	{name: "llama.cpp error", in: `{"error":{"code":500,"message":"the request exceeds the available context size","type":"server_error"}}`, wantErr: "the request exceeds the available context size"},

	// Ollama
	{name: "ollama text", in: `{"id":"chatcmpl-123","object":"chat.completion.chunk","created":1735000000,"model":"llama3.2","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}`, want: model.Delta{Text: "Hi"}},
	{name: "ollama reasoning", in: `{"id":"chatcmpl-123","object":"chat.completion.chunk","created":1735000000,"model":"qwen3","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"thinking"},"finish_reason":null}]}`, want: model.Delta{Reasoning: "thinking"}},
	{name: "ollama whole tool call", in: `{"id":"chatcmpl-123","object":"chat.completion.chunk","created":1735000000,"model":"llama3.2","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"","tool_calls":[{"id":"call_abc","index":0,"type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},"finish_reason":null}]}`,
		want: model.Delta{ToolCalls: []model.ToolCallDelta{{ID: "call_abc", Name: "get_weather", Arguments: `{"city":"Paris"}`}}}},
	{name: "ollama finish and usage", in: `{"id":"chatcmpl-123","object":"chat.completion.chunk","created":1735000000,"model":"llama3.2","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":"stop"}],"usage":{"prompt_tokens":26,"completion_tokens":10,"total_tokens":36}}`, want: model.Delta{FinishReason: "stop", Usage: &model.Usage{PromptTokens: 26, CompletionTokens: 10, TotalTokens: 36}}},
	{name: "ollama error", in: `{"error":{"message":"model \"llama9\" not found, try pulling it first","type":"api_error","param":null,"code":null}}`, wantErr: `model "llama9" not found, try pulling it first`},

	// OpenRouter
	{name: "openrouter text", in: `{"id":"gen-1741000000-abcdef","provider":"OpenAI","model":"openai/gpt-4o","object":"chat.completion.chunk","created":1741000000,"choices":[{"index":0,"delta":{"role":"assistant","content":"Hi","reasoning":null,"reasoning_details":[]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}],"system_fingerprint":"fp_x"}`, want: model.Delta{Text: "Hi"}},
	{name: "openrouter reasoning details", in: `{"id":"gen-1","provider":"Anthropic","model":"anthropic/claude-3.7-sonnet","object":"chat.completion.chunk","created":1741000000,"choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"The user","reasoning_details":[{"type":"reasoning.text","text":"The user","format":"anthropic-claude-v1","index":0,"signature":null}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}`, want: model.Delta{Reasoning: "The user"}},
	{name: "openrouter mid-stream error", in: `{"id":"cmpl-abc123","object":"chat.completion.chunk","created":1234567890,"model":"gpt-3.5-turbo","provider":"openai","error":{"code":"server_error","message":"Provider disconnected unexpectedly"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}`, wantErr: "Provider disconnected unexpectedly"},
	{name: "openrouter usage with cost", in: `{"id":"gen-1","provider":"OpenAI","model":"openai/gpt-4o","object":"chat.completion.chunk","created":1741000000,"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":"stop","native_finish_reason":"stop","logprobs":null}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"cost":0.00012,"is_byok":false,"prompt_tokens_details":{"cached_tokens":0},"cost_details":{"upstream_inference_cost":null},"completion_tokens_details":{"reasoning_tokens":0}}}`, want: model.Delta{FinishReason: "stop", Usage: &model.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}}},

	// Usage
	{name: "openai reasoning usage", in: `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1741570283,"model":"o3-mini-2025-01-31","service_tier":"default","system_fingerprint":"fp_42bfad963b","choices":[],"usage":{"prompt_tokens":24,"completion_tokens":1337,"total_tokens":1361,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":1216,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}`,
		want: model.Delta{Usage: &model.Usage{PromptTokens: 24, CompletionTokens: 1337, TotalTokens: 1361, ReasoningTokens: 1216}}},
	{name: "openrouter reasoning usage", in: `{"id":"gen-1","provider":"DeepSeek","model":"deepseek/deepseek-r1","object":"chat.completion.chunk","created":1741000000,"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null,"native_finish_reason":null,"logprobs":null}],"usage":{"prompt_tokens":12,"completion_tokens":300,"total_tokens":312,"cost":0.0007,"is_byok":false,"prompt_tokens_details":{"cached_tokens":0},"cost_details":{"upstream_inference_cost":null},"completion_tokens_details":{"reasoning_tokens":250}}}`,
		want: model.Delta{Usage: &model.Usage{PromptTokens: 12, CompletionTokens: 300, TotalTokens: 312, ReasoningTokens: 250}}},
	{name: "vllm continuous usage on a text chunk", in: `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1718000000,"model":"m","choices":[{"index":0,"delta":{"content":" hi"},"logprobs":null,"finish_reason":null}],"usage":{"prompt_tokens":10,"total_tokens":11,"completion_tokens":1}}`,
		want: model.Delta{Text: " hi", Usage: &model.Usage{PromptTokens: 10, CompletionTokens: 1, TotalTokens: 11}}},
	{name: "usage null", in: `{"choices":[],"usage":null}`},
	{name: "usage empty object", in: `{"choices":[],"usage":{}}`, want: model.Delta{Usage: &model.Usage{}}},
	{name: "usage float counts", in: `{"usage":{"prompt_tokens":10.0,"completion_tokens":2e1,"total_tokens":30.9}}`, want: model.Delta{Usage: &model.Usage{PromptTokens: 10, CompletionTokens: 20, TotalTokens: 30}}},
	{name: "usage negative and huge counts clamp", in: `{"usage":{"prompt_tokens":-5,"completion_tokens":1e300}}`, want: model.Delta{Usage: &model.Usage{CompletionTokens: 2147483647}}},
	{name: "usage null counts", in: `{"usage":{"prompt_tokens":null,"total_tokens":3,"completion_tokens_details":null}}`, want: model.Delta{Usage: &model.Usage{TotalTokens: 3}}},
	{name: "usage folded keys", in: `{"usage":{"Prompt_Tokens":4,"COMPLETION_TOKENS_DETAILS":{"Reasoning_Tokens":2}}}`, want: model.Delta{Usage: &model.Usage{PromptTokens: 4, ReasoningTokens: 2}}},
	{name: "usage string count is dropped", in: `{"choices":[{"delta":{"content":"x"},"finish_reason":"stop"}],"usage":{"prompt_tokens":"10","total_tokens":10}}`, want: model.Delta{Text: "x", FinishReason: "stop"}},
	{name: "usage out of range is dropped", in: `{"usage":{"prompt_tokens":1e400}}`},
	{name: "usage of the wrong type is dropped", in: `{"choices":[{"delta":{"content":"x"}}],"usage":"n/a"}`, want: model.Delta{Text: "x"}},
	{name: "usage array is dropped", in: `{"usage":[1,2]}`},
	{name: "usage details of the wrong type are dropped", in: `{"usage":{"total_tokens":3,"completion_tokens_details":[]}}`},
	{name: "usage repeated key replaces", in: `{"usage":{"prompt_tokens":1,"total_tokens":1},"usage":{"completion_tokens":2}}`, want: model.Delta{Usage: &model.Usage{CompletionTokens: 2}}},
	{name: "usage bad then good", in: `{"usage":{"prompt_tokens":true},"usage":{"prompt_tokens":7}}`, want: model.Delta{Usage: &model.Usage{PromptTokens: 7}}},
	{name: "usage good then null", in: `{"usage":{"prompt_tokens":7},"usage":null}`},
	{name: "usage details merge and reset", in: `{"usage":{"completion_tokens_details":{"reasoning_tokens":3},"completion_tokens_details":{"audio_tokens":1}}}`, want: model.Delta{Usage: &model.Usage{ReasoningTokens: 3}}},
	{name: "usage details null resets", in: `{"usage":{"completion_tokens_details":{"reasoning_tokens":3},"completion_tokens_details":null,"completion_tokens_details":{}}}`, want: model.Delta{Usage: &model.Usage{}}},
	{name: "usage with an error", in: `{"error":{"message":"quota"},"usage":{"prompt_tokens":1}}`, wantErr: "quota"},
	{name: "usage syntax error", in: `{"usage":{"prompt_tokens":01}}`, bad: true},
	{name: "usage bad count syntax", in: `{"usage":{"prompt_tokens":1.}}`, bad: true},
	{name: "usage string count syntax error", in: `{"usage":{"prompt_tokens":"\q"}}`, bad: true},

	// Strings
	{name: "escapes", in: `{"choices":[{"delta":{"content":"a\"b\\c\/d\be\ff\ng\rh\ti\u0000j"}}]}`, want: model.Delta{Text: "a\"b\\c/d\be\ff\ng\rh\ti\x00j"}},
	{name: "unicode escapes", in: `{"choices":[{"delta":{"content":"caf\u00e9 \ud83d\ude00 \u003cb\u003e \u2028"}}]}`, want: model.Delta{Text: "café 😀 <b> \u2028"}},
	{name: "raw utf-8", in: `{"choices":[{"delta":{"content":"日本語 😀"}}]}`, want: model.Delta{Text: "日本語 😀"}},
	{name: "lone surrogates", in: `{"choices":[{"delta":{"content":"\ud83d x \ude00 \ud83d\u0041 \ud83d\ud83d\ude00"}}]}`, want: model.Delta{Text: "\uFFFD x \uFFFD \uFFFDA \uFFFD😀"}},
	{name: "invalid utf-8", in: "{\"choices\":[{\"delta\":{\"content\":\"a\xffb\xed\xa0\x80c\xe6\x97\"}}]}", want: model.Delta{Text: "a\uFFFDb\uFFFD\uFFFD\uFFFDc\uFFFD\uFFFD"}},
	{name: "invalid utf-8 with escape", in: "{\"choices\":[{\"delta\":{\"content\":\"\\n\xff\"}}]}", want: model.Delta{Text: "\n\uFFFD"}},

	// encoding/json's rules
	{name: "null document", in: ` null `},
	{name: "whitespace", in: " \t\r\n{ \"choices\" : [ { \"delta\" : { \"content\" : \"x\" } } ] } \n", want: model.Delta{Text: "x"}},
	{name: "reasoning_content wins", in: `{"choices":[{"delta":{"reasoning":"b","reasoning_content":"a"}}]}`, want: model.Delta{Reasoning: "a"}},
	{name: "empty reasoning_content falls back", in: `{"choices":[{"delta":{"reasoning_content":"","reasoning":"b"}}]}`, want: model.Delta{Reasoning: "b"}},
	{name: "case-insensitive keys", in: `{"Choices":[{"DELTA":{"Content":"x","Tool_Calls":[{"Index":3,"ID":"i","Function":{"NAME":"n"}}]},"Finish_Reason":"stop"}]}`,
		want: model.Delta{Text: "x", FinishReason: "stop", ToolCalls: []model.ToolCallDelta{{Index: 3, ID: "i", Name: "n"}}}},
	{name: "escaped and folded keys", in: `{"\u0063hoices":[{"delta":{"\u017Fontent":"no","conten\u0074":"x"}}],"\u212Aey":1}`, want: model.Delta{Text: "x"}},
	{name: "long s folds to s", in: `{"choices":[{"delta":{"reaſoning":"r"}}]}`, want: model.Delta{Reasoning: "r"}},
	{name: "null leaves strings", in: `{"choices":[{"delta":{"content":"x","content":null},"finish_reason":"stop","finish_reason":null}]}`, want: model.Delta{Text: "x", FinishReason: "stop"}},
	{name: "duplicate keys merge", in: `{"choices":[{"delta":{"content":"x"}}],"choices":[{"delta":{"reasoning":"r"}}]}`, want: model.Delta{Text: "x", Reasoning: "r"}},
	{name: "empty choices resets", in: `{"choices":[{"delta":{"content":"x"}}],"choices":[]}`},
	{name: "null choices resets", in: `{"choices":[{"delta":{"content":"x"}}],"choices":null,"choices":[{}]}`},
	{name: "null choice", in: `{"choices":[null]}`},
	{name: "error null", in: `{"error":{"message":"x"},"error":null}`},
	{name: "error empty", in: `{"error":{}}`, emptyErr: true},
	{name: "error merges", in: `{"error":{"message":"x"},"error":{"code":1}}`, wantErr: "x"},
	{name: "index extremes", in: `{"choices":[{"delta":{"tool_calls":[{"index":-0},{"index":9223372036854775807},{"index":-9223372036854775808}]}}]}`,
		want: model.Delta{ToolCalls: []model.ToolCallDelta{{Index: 0}, {Index: 9223372036854775807}, {Index: -9223372036854775808}}}},
	{name: "stale tool call comes back", in: `{"choices":[{"delta":{"tool_calls":[{"id":"a"},{"id":"b"}],"tool_calls":[{"index":1}],"tool_calls":[{},{"index":2}]}}]}`,
		want: model.Delta{ToolCalls: []model.ToolCallDelta{{Index: 1, ID: "a"}, {Index: 2, ID: "b"}}}},
	{name: "empty tool_calls", in: `{"choices":[{"delta":{"tool_calls":[]}}]}`},

	// Malformed, or the wrong type for a field
	{name: "empty", in: ``, bad: true},
	{name: "truncated", in: `{"choices":[{"delta":{"content":"x`, bad: true},
	{name: "trailing comma", in: `{"choices":[{"delta":{}},]}`, bad: true},
	{name: "trailing data", in: `{} {}`, bad: true},
	{name: "bad escape", in: `{"x":"\q"}`, bad: true},
	{name: "bad unicode escape", in: `{"x":"\u12G4"}`, bad: true},
	{name: "control character", in: "{\"x\":\"a\tb\"}", bad: true},
	{name: "leading zero", in: `{"x":01}`, bad: true},
	{name: "bad literal", in: `{"x":nul}`, bad: true},
	{name: "single quotes", in: `{'x':1}`, bad: true},
	{name: "top-level array", in: `[]`, bad: true},
	{name: "top-level string", in: `"x"`, bad: true},
	{name: "content number", in: `{"choices":[{"delta":{"content":1}}]}`, bad: true},
	{name: "content object", in: `{"choices":[{"delta":{"content":{}}}]}`, bad: true},
	{name: "choices object", in: `{"choices":{}}`, bad: true},
	{name: "choice string", in: `{"choices":["x"]}`, bad: true},
	{name: "second choice bad", in: `{"choices":[{},{"delta":{"content":true}}]}`, bad: true},
	{name: "index float", in: `{"choices":[{"delta":{"tool_calls":[{"index":1.0}]}}]}`, bad: true},
	{name: "index exponent", in: `{"choices":[{"delta":{"tool_calls":[{"index":1e2}]}}]}`, bad: true},
	{name: "index overflow", in: `{"choices":[{"delta":{"tool_calls":[{"index":9223372036854775808}]}}]}`, bad: true},
	{name: "index string", in: `{"choices":[{"delta":{"tool_calls":[{"index":"0"}]}}]}`, bad: true},
	{name: "error string", in: `{"error":"overloaded"}`, bad: true},
	{name: "finish_reason number", in: `{"choices":[{"finish_reason":1}]}`, bad: true},
}

func TestScanChunk(t *testing.T) {
	t.Parallel()
	for _, tc := range scanCases {
		t.Run(tc.name, func(t *testing.T) {
			d, ee, err := scanChunk([]byte(tc.in))
			if tc.bad {
				if err == nil {
					t.Fatalf("scanChunk accepted %q: %+v %v", tc.in, d, ee)
				}
			} else {
				if err != nil {
					t.Fatalf("scanChunk: %v", err)
				}
				isErr := tc.wantErr != "" || tc.emptyErr
				if (ee != nil) != isErr || ee != nil && ee.Message != tc.wantErr {
					t.Fatalf("endpoint error %+v, want %q", ee, tc.wantErr)
				}
				if !reflect.DeepEqual(d, tc.want) {
					t.Fatalf("delta\n got %s\nwant %s", fmtDelta(d), fmtDelta(tc.want))
				}
			}
			compareWithJSON(t, []byte(tc.in))
		})
	}
}

func TestScanChunkDepth(t *testing.T) {
	t.Parallel()
	// Where the nesting starts, and how deep that is already.
	wraps := []struct {
		head, tail string
		depth      int
	}{
		{`{"x":`, `}`, 1},
		{`{"choices":[{"delta":{"x":`, `}}]}`, 4},
		{`{"choices":[{"delta":{"tool_calls":[{"function":{"x":`, `}}]}}]}`, 7},
		{`{"choices":[{},`, `]}`, 2},
		{`{"choices":[{"delta":{"tool_calls":`, `}}]}`, 4},
	}
	for _, w := range wraps {
		for _, extra := range []int{-1, 0, 1} {
			n := maxNestingDepth - w.depth + extra
			for _, open := range []string{"[", `{"a":`} {
				close := "]"
				if open != "[" {
					close = "}"
				}
				in := []byte(w.head + strings.Repeat(open, n) + "1" + strings.Repeat(close, n) + w.tail)
				_, _, err := scanChunk(in)
				if wantErr := w.depth+n > maxNestingDepth; wantErr && err == nil {
					t.Fatalf("%s… depth %d (%s): no error", w.head, w.depth+n, open)
				}
				compareWithJSON(t, in)
			}
		}
	}
}

// compareWithJSON checks scanChunk against decodeChunk (json.Unmarshal).
func compareWithJSON(t *testing.T, b []byte) {
	t.Helper()
	d1, e1, err1 := decodeChunk(b)
	d2, e2, err2 := scanChunk(b)
	if (err1 == nil) != (err2 == nil) {
		t.Fatalf("%q:\nencoding/json: %v\nscanChunk:     %v", b, err1, err2)
	}
	if !json.Valid(b) && err2 == nil {
		t.Fatalf("%q: invalid JSON accepted", b)
	}
	if err1 != nil {
		return
	}
	if !reflect.DeepEqual(d1, d2) {
		t.Fatalf("%q:\nencoding/json: %s\nscanChunk:     %s", b, fmtDelta(d1), fmtDelta(d2))
	}
	if !reflect.DeepEqual(e1, e2) {
		t.Fatalf("%q:\nencoding/json error: %#v\nscanChunk error:     %#v", b, e1, e2)
	}
}

// FuzzScanChunk holds scanChunk to json.Unmarshal's behaviour: both fail,
// or both succeed with the same result. Seeds: testdata/fuzz/FuzzScanChunk.
func FuzzScanChunk(f *testing.F) {
	for _, tc := range scanCases {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		compareWithJSON(t, b)
	})
}

// fmtDelta prints d with its usage, not the usage's address.
func fmtDelta(d model.Delta) string {
	u := "<nil>"
	if d.Usage != nil {
		u = fmt.Sprintf("%+v", *d.Usage)
	}
	d.Usage = nil
	return fmt.Sprintf("%#v usage %s", d, u)
}

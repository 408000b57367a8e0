// Package fakellm is a fake OpenAI-compatible chat completions server for
// offline tests, browser end-to-end runs and the offline demo.
//
// It is real HTTP on 127.0.0.1 with real server-sent events, so the code
// under test talks to it through the real openai-go client and the real
// net/http transport. Each POST /v1/chat/completions consumes the next
// scripted [Response] (FIFO, see [Server.Enqueue]); when the queue is empty
// the fallback set with [Server.SetFallback] answers, and without one the
// server replies HTTP 500.
//
// A streamed response is a sequence of [Step]s. Every chunk step becomes one
// `data: {chat.completion.chunk}` frame shaped like the frames that OpenAI,
// Ollama, LM Studio, vLLM and llama.cpp send:
//
//   - the first chunk of a response carries delta.role "assistant";
//   - [Text] carries delta.content;
//   - [Reasoning] carries delta.reasoning_content (DeepSeek, vLLM, llama.cpp)
//     and [ReasoningField] carries delta.reasoning (OpenRouter, Ollama);
//   - [ToolCall] opens a tool call by index (id, type "function",
//     function.name, possibly empty arguments) and [ToolArgs] streams more
//     argument fragments for that index;
//   - [Finish] sends an empty delta with finish_reason;
//   - [Usage] sends the final `choices: []` usage chunk, but only when the
//     request asked for it with stream_options.include_usage, as OpenAI does;
//   - `data: [DONE]` ends the stream unless the script ends in [Stall] or
//     [Cut], or already contains [Done].
//
// A request with stream false gets one chat.completion object assembled from
// the same steps. Delays and failures ([Delay], [Stall], [Cut], [HTTPError],
// [HeadersThenStall]) exercise cancellation and error paths.
//
// Frames are encoded when a step is constructed; at request time the server
// only concatenates bytes, so it can stream far faster than any client can
// parse (see [TokenStream], [Bench] and [Batch]).
//
// [Demo] is a fallback that makes the app usable without a network, and
// [Serve] runs it standalone (cmd/fakellm, `make demo`).
package fakellm

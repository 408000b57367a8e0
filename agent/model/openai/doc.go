// Package openai talks to any OpenAI-compatible Chat Completions endpoint
// (OpenAI, Ollama, LM Studio, OpenRouter, llama.cpp, vLLM) through openai-go
// v3, streaming, and turns its chunks into the provider-neutral deltas of
// agent/model; [Client] implements model.Model.
//
// Inside this package the identifier openai is openai-go's package (a
// package does not declare its own name), and model is agent/model.
//
// The package does not retry: retry policy belongs to the runtime, which must
// be able to honour Stop during a backoff. openai-go's own retries are off.
//
// # Delta sequences
//
// [Client.Deltas], and [Stream] (the same stream, pulled by hand), keep
// model.Model's promises, in OpenAI-compatible terms:
//   - Deltas come in the endpoint's order, one per chunk that carried
//     something: text, reasoning, tool-call fragments, a finish reason or
//     usage. Chunks with none of these are skipped.
//   - At most one element has a non-nil error. It is the last one and its
//     Delta is zero. The error is ctx's error, unchanged, once ctx is
//     cancelled; otherwise an *EndpointError (see [Classify]): 429 and 5xx
//     are Retryable (with RetryAfter), other statuses are not; network
//     errors are Retryable; an error object in the stream (OpenRouter) and
//     a malformed chunk are not; a stream that ends before any
//     finish_reason, with or without [DONE], is Retryable and Cut.
//   - A sequence without an error element is a complete answer: a
//     finish_reason arrived, then [DONE] or the end of the body.
//   - Tool-call fragments are keyed by Index. ID, Name and Arguments are
//     what each chunk sent, never joined: the consumer concatenates
//     Arguments and takes the first non-empty ID and Name (some servers
//     repeat the whole name in every fragment).
//   - Usage: the request sets stream_options.include_usage. An endpoint
//     that honours it reports counts on a Delta with a non-nil Usage: a
//     Delta of its own after the finish reason (OpenAI), or the finish
//     chunk itself (llama.cpp, Ollama, OpenRouter). If several Deltas carry
//     Usage (vLLM's continuous usage), the last one counts. An endpoint
//     that sends none leaves it nil throughout. A usage object of an
//     unexpected shape is dropped; it never fails the stream.
//   - Breaking out of the loop, or cancelling ctx, closes the response
//     body before the range statement ends, also when the endpoint has
//     stalled mid-stream; no goroutine or connection is left behind.
//
// # Chunk decoding
//
// Chunks are decoded by a hand-written scanner (chunkscan.go, jsonlex.go)
// that FuzzScanChunk holds to encoding/json's behaviour. It stays because
// it is measured clearly faster where it counts (BenchmarkDecodeChunk,
// BenchmarkStream; best of 9 runs on 2 shared cores): a text chunk takes
// 0.36 µs against 2.3 µs for encoding/json into a struct of only the used
// fields and 13.5 µs for openai-go's ssestream and ChatCompletionChunk; a
// 20,000-token stream through Client.Deltas costs 0.56 µs a token against
// 3.0 and 13.3 µs. The 2.5 µs a token it saves over encoding/json is more
// than half of the whole server's budget (bench/README.md: the transports
// benchmark asks for at most 1/8 of the TanStack anchor's 36 µs a token,
// i.e. 4.5 µs; 8.5 µs was measured). The full table is in chunkscan.go.
package openai

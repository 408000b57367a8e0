// Package interrupt is Juncture's interrupt model, wire-compatible with
// @tanstack/ai 0.58.0 on top of AG-UI 1.0 (Interrupt, ResumeEntry,
// RUN_FINISHED interrupt outcomes, RUN_ERROR failure terminals).
//
// It is a set of pure functions and data types: no I/O, no goroutines, no
// clocks (time is always a parameter). The runtime owns history, the store
// of pending batches, events and execution.
//
// # Guarantees
//
//   - CanonicalJSON, Digest, HashSchemaInput, NormalizeApprovalSchema,
//     HashDefinitionSchema and the binding readers/writers reproduce the
//     reference byte for byte; every vector of testdata/tanstack-interrupts.json
//     (generated from the published package) passes.
//   - Bindings are read with the normative algorithm (§6.3). Anything the
//     reader refuses is unbound: display-only, never resumable, never
//     blocking (ClassifyBatch, Blocking). BuildBatch sanitises bindings
//     before emission (§6.4).
//   - ValidateResumeBatch is all-or-nothing: it returns either the complete
//     resume state or every error, in the reference order and shape (item
//     errors grouped by interrupt id, then incomplete-batch, then
//     item-validation-failed), ready for the single RUN_ERROR of §13
//     (BatchError.Terminal). Nothing is ever partially accepted.
//   - Edited arguments replace the call's arguments (never merged); the
//     model receives exactly one result per decided call (ResumeState.ToolResult).
//
// # Decisions where the specification leaves room
//
// JSON values. JavaScript values have Go analogues: a nil json.RawMessage is
// undefined (an error, never omitted), time.Time is a Date
// (ErrNotPlainObject), *big.Int/Float/Rat are bigint (ErrNotJSONCompatible),
// a struct without MarshalJSON is a class instance (ErrNotPlainObject).
// Types with MarshalJSON/MarshalText contribute their JSON form; nil maps and
// slices are null, as with encoding/json. Parse decodes like JSON.parse
// (doubles, last-wins keys). Lone surrogates are kept inside Go strings in
// their 3-byte WTF-8 form and written back as \udxxx; any other invalid
// UTF-8 reads as U+FFFD per maximal subpart (WHATWG TextDecoder), and Digest
// hashes text like TextEncoder. Nesting deeper than 1000 levels is refused
// (ErrTooDeep). Binding integers (generation, batchIndex) above 2^53-1 are
// refused although the reference accepts any integral double.
//
// Dates. ParseDate accepts the ECMAScript date-time format (date-only forms
// UTC, date-times without offset local, days 1-31 rolling over like V8) and
// RFC 1123 / Date.prototype.toString forms; other strings V8's legacy parser
// might accept are invalid here. Expiry compares whole milliseconds,
// Date.parse(expiresAt) <= now.
//
// Schemas. Go has only raw JSON Schemas. Tool schemas must be recognisably
// raw for a TS peer (IsRawJSONSchema, e.g. {"type":"object"} rather than {})
// so hashes agree and schema drift stays detectable (D12);
// UnserializedSchemaHash is only recognised, never produced. Schemas are
// compiled with santhosh-tekuri/jsonschema/v6 (default draft 2020-12,
// "$schema" honoured, remote and file references refused), once per schema
// hash, in a bounded SchemaCache. Issue messages are person-readable with
// RFC 6901 pointers and TanStack-style paths, sorted by pointer.
//
// Raw-schema validation (D11). Besides the reference checks, every raw
// schema is enforced in the same error envelope: generic payloads against
// the responseSchema (first-party: the definition export), editedArgs
// against the tool input schema (invalid-edited-args; paths relative to
// editedArgs), branch payloads against the approval schema (invalid-payload;
// a branch with a schema requires its payload), client-tool outputs against
// the response and output schemas (invalid-tool-output; a client's failure
// report {"error": "<text>"} is accepted as is). The approval envelope as a
// whole is not checked against its advertised oneOf: the reference accepts a
// reject payload even without a reject schema, and the vectors require it. A
// schema that does not compile yields invalid-response-schema (server). A
// payload that is not JSON-compatible (e.g. 1e400) is invalid-payload.
//
// Denial reasons. TanStack carries a reason as the reject-branch payload. A
// tool opts in with ApprovalSchema{Reject: DenialReasonSchema}; the answer is
// then {"approved":false,"payload":{"reason"?:"..."}} (the payload object is
// required by the reference shape, the reason inside it is optional), and a
// TS client types the item when its tool declares the same raw schema.
// Without the opt-in, true/false and {"approved":...} stay valid and a
// rejection yields the default denial result. Approval.Reason reads the
// reason; ResumeState.ToolResult gives the one result the model must see
// (D1).
//
// Correlation. Bindings must match the expected interrupted run and
// generation exactly (§19; generation 0 for a first issue, higher when a
// batch is re-issued). Beyond the reference, a tool item is stale when the
// descriptor's toolCallId differs from the binding's, or when Pending.ToolCall
// (the call in the server-owned history) has another id, name or canonical
// arguments than the binding's originalArgs; a first-party item is stale
// when its definition's schema hashes changed. Cancelling an expired
// interrupt is accepted (D9). The order of resume entries never matters and
// error groups are sorted with ICU English collation, matching Node's
// localeCompare (D8). An id that is not pending is refused (D10); an
// unknown id is reported once however often it repeats.
//
// Classification. ClassifyBatch follows §17 but only resumable items block
// (D2): a binding that merely looks first-party is unbound with a Problem
// text instead of an error item, and items of another run are shown, not
// answerable.
//
// Model-written schemas (ask_user). CheckModelSchema accepts a JSON object
// describing an object ("type":"object"), at most 8 KiB canonical and 10
// levels deep by default, that compiles.
//
// Runtime notes. Keep pending batches server-side keyed by (threadId,
// interruptedRunId, generation) and validate resumes against the stored
// Pending items for every kind (D3); use MissingParentRunError with the
// stored run (D7); input without a resume while a batch is pending can be
// refused with ValidateResumeBatch(pending, nil, ...), which reports every
// missing entry.
package interrupt

// Package mcp runs the MCP servers the person configured and offers their
// tools to the agent runtime as tools.Tool values. It has no Wails imports:
// the app wires it (Apply on every configuration change, Tools for each
// turn's registry, Servers and Log for Settings).
//
// # Guarantees
//
//   - The window never waits for a server: Apply, Restart and RootsChanged
//     return at once; servers start, stop and restart in the background.
//     OnChange is called on the Manager's own goroutine, never under a
//     lock, and a burst of changes makes one call.
//   - One supervisor goroutine per server owns its process and session.
//     Everything else reads a snapshot under a mutex or sends it a
//     coalesced request (restart, re-list, roots). A server whose
//     configuration changed is started again only after its previous
//     process ended.
//   - A stdio server gets the minimal environment (tools.ServerEnv): never
//     the app's API key or token, only the variables the person configured.
//     Its process group belongs to Options.Processes, and stopping it is
//     SIGTERM, 2 s, SIGKILL. HTTP header values are secrets: they appear
//     in no log line, error or status, and go only to the configured
//     origin (never after a redirect elsewhere). A URL in an error is
//     shown without its query or user info.
//   - A server's annotations are hints from a stranger. A tool runs without
//     asking only under the default policy when it says readOnlyHint and
//     said so the first time Juncture saw it (its Pin); a pin only ever
//     becomes stricter on its own.
//   - A tool whose input schema the registry would refuse is left out (and
//     shown in ServerStatus with a note), so one bad tool never breaks a
//     turn. So is a name listed twice (both copies), a name that is empty,
//     over 128 bytes or holds control or format characters, a schema over
//     64 KiB, and every tool past 256; a description is cut at 8 KiB. The
//     server's log says what was left out (listing.go).
//   - What a server sends is read within budgets (budget.go, frame.go):
//     one message at most 16 MiB (a larger one is reported as too large
//     and the session is reconnected), a progress message 1 KiB, a
//     result's stored parts 8 MiB, its resource text and structured
//     content 256 KiB each. What is cut says so.
//   - Tool calls are Abortable: when the call's context ends, Run returns
//     at once and the SDK tells the server (notifications/cancelled). A
//     server that dies mid-call yields an error result saying side effects
//     are unknown; over HTTP the failed call makes the supervisor ping the
//     server and, when it does not answer, reconnect with backoff. Run
//     never returns a Go error; every failure is a result the model reads.
//   - A sampling request is answered by the model and endpoint of the
//     thread whose call it serves (tools.CallThread).
//   - A server's elicitation and sampling requests go to the person
//     through tools.Ask on the context of a tool call of that server in
//     flight: the earliest started one still running, since the protocol
//     does not say which call a request serves. With none in flight the
//     request is declined. Ask may block as long as the person takes; it
//     ends when the call is stopped, the server gives up, or the session
//     closes.
//   - Close ends every session and process and returns once every
//     goroutine the Manager started has returned.
//
// Juncture speaks MCP 2025-11-25 (see protocolVersion).
package mcp

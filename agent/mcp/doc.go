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
//     in no log line, error or status.
//   - A server's annotations are hints from a stranger. A tool runs without
//     asking only under the default policy when it says readOnlyHint and
//     said so the first time Juncture saw it (its Pin); a pin only ever
//     becomes stricter on its own.
//   - A tool whose input schema the registry would refuse is left out (and
//     shown in ServerStatus with a note), so one bad tool never breaks a
//     turn.
//   - Tool calls are Abortable: when the call's context ends, Run returns
//     at once and the SDK tells the server (notifications/cancelled). A
//     server that dies mid-call yields an error result saying side effects
//     are unknown. Run never returns a Go error; every failure is a result
//     the model reads.
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

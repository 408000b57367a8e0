package agent

// ThreadID tells a tool the thread its call runs in (tools.CallThread),
// so what the tool asks for on the call's behalf (an MCP server's
// sampling request) uses that thread's model and endpoint.
func (lc *liveCall) ThreadID() string { return lc.threadID }

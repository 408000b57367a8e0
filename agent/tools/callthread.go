package tools

import "context"

// threadEnv is a CallEnv that knows the thread the call runs in.
type threadEnv interface{ ThreadID() string }

// CallThread returns the thread a running call belongs to, or "" when
// ctx carries no CallEnv that knows it (a call outside a run). What a
// tool asks on the call's behalf, such as an MCP server's sampling
// request, goes to that thread's model and endpoint.
func CallThread(ctx context.Context) string {
	if env, ok := ctx.Value(callEnvKey{}).(threadEnv); ok && env != nil {
		return env.ThreadID()
	}
	return ""
}

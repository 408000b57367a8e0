// Package mcphost is the app's side of hosting MCP servers, beside the
// manager in agent/mcp: MCP App views opened for the window's frames
// (single-use names, their Content-Security-Policy, the /appview/
// handler), handing a sign-in's page to the window, the saved log levels
// and the tool pins kept in the store. The facade's MCP methods forward
// here and map the errors; nothing here knows a transport.
package mcphost

// Package mcphost is the app's side of hosting MCP servers.
//
// Beside the manager in agent/mcp: starting it (Start), MCP App views
// opened for the window's frames (single-use names, their
// Content-Security-Policy, the /appview/ handler), handing a sign-in's
// page to the window and a juncture:// link to the sign-in, the
// configuration as Settings shows it, the saved log levels and the tool
// pins. The facade's MCP methods forward here and map the errors.
package mcphost

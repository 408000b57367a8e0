// Package toolset is the tools a thread's next turn is offered.
//
// The built-ins over the workspace folder, the window's client tools and
// the MCP servers' tools, narrowed to those the thread chose.
package toolset

import (
	"slices"

	"github.com/juncture-app/juncture/agent/tools"
)

// Workspace is the folder the file tools act in and permission rules are
// matched in: the setting, else the default folder (with the error when
// there is none).
func Workspace(setting string) (tools.Workspace, error) {
	root := setting
	if root == "" {
		var err error
		if root, err = tools.DefaultWorkspace(); err != nil {
			return tools.Workspace{Root: root}, err
		}
	}
	return tools.Workspace{Root: root}, nil
}

// For is the registry of a turn: every tool, or, when the thread chose
// its tools (chosen non-nil), only those.
func For(ws tools.Workspace, o tools.BuiltinOptions, mcpTools []tools.Tool, chosen *[]string) (*tools.Registry, error) {
	all := append(tools.Builtins(ws, o), tools.ClientTools()...)
	all = append(all, mcpTools...)
	if chosen != nil {
		all = slices.DeleteFunc(all, func(t tools.Tool) bool { return !slices.Contains(*chosen, t.Name) })
	}
	return tools.NewRegistry(all...)
}

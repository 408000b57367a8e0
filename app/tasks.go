package app

import (
	"context"
	"encoding/json"

	"github.com/juncture-app/juncture/agent/tools"
)

// resumeTask follows a task call kept from the previous run of the app
// (agent.Options.ResumeTask) at its MCP server.
func (a *App) resumeTask(ctx context.Context, handle json.RawMessage) tools.Result {
	if a.mcp == nil {
		return tools.Result{IsError: true, Content: "The task's outcome is unknown: MCP servers are off."}
	}
	return a.mcp.ResumeTask(ctx, handle)
}

// resumeTasks starts following the task calls the last run left running
// (recovery kept them started with their handle): their threads continue
// on their own once each task ends.
func (a *App) resumeTasks(ctx context.Context) {
	execs, err := a.db.StartedToolTasks(ctx)
	if err != nil {
		a.log.Error("listing the task calls to resume", "err", err)
		return
	}
	if len(execs) == 0 {
		return
	}
	a.startMCPServers() // the calls resume on their servers (Config.MCPAtWindow)
	n, err := a.rt.ResumeTasks(ctx, execs)
	if err != nil {
		a.log.Error("resuming task calls", "err", err)
	}
	a.log.Info("resumed task calls", "calls", len(execs), "threads", n)
}

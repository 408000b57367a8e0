package app

import (
	"encoding/json"

	"github.com/juncture-app/juncture/app/web"
)

// The browser transport's method table: every bound method by name, with
// its arguments decoded into their declared types (web's Call adapters),
// and the one read-only guard, applied here where methods are dispatched.
// TestCallTableCoversTheBindings keeps it in step with the methods Wails
// binds.

// call runs one method with the JSON of its arguments.
type call = web.Call

// Calls is the method table browser mode dispatches through (web.Facade),
// each writing method behind the read-only guard.
func (s *Service) Calls() map[string]web.Call { return s.app.callTable() }

func (a *App) callTable() map[string]call {
	t := a.methodCalls()
	for name := range writers {
		t[name] = a.guarded(name, t[name])
	}
	return t
}

// methodCalls is every bound method, unguarded.
func (a *App) methodCalls() map[string]call {
	return map[string]call{
		"Answer":               web.Call2(a.Answer),
		"ResolveInterrupts":    web.Call2E(a.ResolveInterrupts),
		"RespondPermission":    web.Call4E(a.RespondPermission),
		"SaveExport":           web.Call2(a.SaveExport),
		"Notify":               web.Call2E(a.Notify),
		"Status":               web.Call0V(a.Status),
		"SendInput":            web.Call3(a.SendInput), // the files are optional: two-argument calls keep working
		"GetAttachment":        web.Call2(a.GetAttachment),
		"InspectPDF":           web.Call1(a.InspectPDF),
		"Interrupt":            web.Call1E(a.Interrupt),
		"ContinueAnswer":       web.Call1E(a.ContinueAnswer),
		"EditMessage":          web.Call3(a.EditMessage),
		"Regenerate":           web.Call2E(a.Regenerate),
		"SelectBranch":         web.Call2(a.SelectBranch),
		"RemoveQueued":         web.Call2E(a.RemoveQueued),
		"NewThread":            web.Call1(a.NewThread),
		"ListThreads":          web.Call2(a.ListThreads),
		"GetThread":            web.Call1(a.GetThread),
		"RenameThread":         web.Call2E(a.RenameThread),
		"PinThread":            web.Call2E(a.PinThread),
		"DeleteThread":         web.Call1E(a.DeleteThread),
		"SearchHistory":        web.Call2(a.SearchHistory),
		"ExportThread":         web.Call2(a.ExportThread),
		"ImportThread":         web.Call1(a.ImportThread),
		"ImportConversations":  web.Call2(a.ImportConversations),
		"GetSettings":          web.Call0V(a.GetSettings),
		"SaveSettings":         web.Call1(a.SaveSettings),
		"TestConnection":       web.Call1V(a.TestConnection),
		"ListPermissionRules":  web.Call0(a.ListPermissionRules),
		"RevokePermissionRule": web.Call1E(a.RevokePermissionRule),
		"ListRules":            web.Call0(a.ListRules),
		"SetRuleDuration":      web.Call2E(a.SetRuleDuration),
		"AddRule":              web.Call1(a.AddRule),
		"ExportRules":          web.Call0(a.ExportRules),
		"ImportRules":          web.Call1(a.ImportRules),
		"ListLedger":           web.Call1(a.ListLedger),
		"VerifyLedger":         web.Call0(a.VerifyLedger),
		"ExportLedger":         web.Call1(a.ExportLedger),
		"ClearLedger":          web.Call1E(a.ClearLedger),
		"SaveLedgerExport":     web.Call1(a.SaveLedgerExport),
		"SaveRulesExport":      web.Call0(a.SaveRulesExport),
		"CompleteClientTool":   web.Call3E(a.CompleteClientTool),
		"DeleteAllHistory":     web.Call0E(a.DeleteAllHistory),
		"ListMCPServers":       web.Call0(a.ListMCPServers),
		"GetMCPConfig":         web.Call0(a.GetMCPConfig),
		"SaveMCPServer":        web.Call3(a.SaveMCPServer),
		"DeleteMCPServer":      web.Call1(a.DeleteMCPServer),
		"SetMCPServerEnabled":  web.Call2(a.SetMCPServerEnabled),
		"SaveMCPConfigText":    web.Call1(a.SaveMCPConfigText),
		"ImportClaudeConfig":   web.Call1(a.ImportClaudeConfig),
		"RestartMCPServer":     web.Call1E(a.RestartMCPServer),
		"SignInMCPServer":      web.Call1(a.SignInMCPServer),
		"SignOutMCPServer":     web.Call1E(a.SignOutMCPServer),
		"MCPServerLog":         web.Call1(a.MCPServerLog),
		"ListEndpoints":        web.Call0(a.ListEndpoints),
		"GetUpdateStatus":      web.Call0(a.GetUpdateStatus),
		"SaveUpdateSettings":   web.Call1(a.SaveUpdateSettings),
		"CheckForUpdate":       web.Call0(a.CheckForUpdate),
		"ApplyUpdate":          web.Call1(a.ApplyUpdate),
		"TakeLaunchThread":     web.Call0V(a.TakeLaunchThread),
		"SaveEndpoint":         web.Call1(a.SaveEndpoint),
		"DeleteEndpoint":       web.Call1E(a.DeleteEndpoint),
		"StartDemo":            web.Call0(a.StartDemo),
		"ListModels":           web.Call1(a.ListModels),
		"ListPresets":          web.Call0(a.ListPresets),
		"SavePreset":           web.Call1(a.SavePreset),
		"DeletePreset":         web.Call1E(a.DeletePreset),
		"SetThreadOptions":     web.Call2(a.SetThreadOptions),

		// What MCP servers offer beyond tools (mcp_offers.go).
		"ListMCPPrompts":          web.Call0(a.ListMCPPrompts),
		"GetMCPPrompt":            web.Call3(a.GetMCPPrompt),
		"CompleteMCP":             web.Call1(a.CompleteMCP),
		"ListMCPResources":        web.Call0(a.ListMCPResources),
		"ReadMCPResource":         web.Call3(a.ReadMCPResource),
		"ReadMCPResourceTemplate": web.Call3(a.ReadMCPResourceTemplate),
		"OpenAppView":             web.Call2(a.OpenAppView),
		"CallToolFromView":        web.Call1(a.CallToolFromView),
		"MCPLogLevels":            web.Call0(a.MCPLogLevels),
		"SetMCPLogLevel":          web.Call2E(a.SetMCPLogLevel),
	}
}

// writers are the methods that write, with what a read-only copy of a
// damaged database refuses ("" = the sentence alone). The dispatcher
// refuses them before decoding their arguments. Wails calls the desktop
// window's bound methods by reflection, with no hook before the call, so
// each of them also starts with the same guard (a.writable).
var writers = map[string]string{
	"SendInput":          "new messages cannot be saved.",
	"EditMessage":        "messages cannot be edited.",
	"Regenerate":         "answers cannot be regenerated.",
	"ContinueAnswer":     "answers cannot be continued.",
	"Answer":             "answers cannot be saved.",
	"ResolveInterrupts":  "answers cannot be saved.",
	"RespondPermission":  "answers cannot be saved.",
	"CompleteClientTool": "answers cannot be saved.",
	"DeleteAllHistory":   "",
	"SetThreadOptions":   "nothing can be changed.",
	"SaveEndpoint":       "nothing can be saved.",
	"SaveSettings":       "nothing can be saved.",
	"DeleteEndpoint":     "nothing can be changed.",
	"StartDemo":          "nothing can be saved.",
	"SavePreset":         "nothing can be saved.",
	"DeletePreset":       "nothing can be changed.",
	"CallToolFromView":   "tools cannot be called.",
	// The MCP configuration file and the sign-ins' tokens are the
	// person's, shared with the damaged database's own app (the same
	// mcp.json, the same key storage): the copy changes neither.
	"SaveMCPServer":       "nothing can be saved.",
	"DeleteMCPServer":     "nothing can be changed.",
	"SetMCPServerEnabled": "nothing can be changed.",
	"SaveMCPConfigText":   "nothing can be saved.",
	"ImportClaudeConfig":  "nothing can be saved.",
	"SignInMCPServer":     "nothing can be changed.",
	"SignOutMCPServer":    "nothing can be changed.",
}

// writable is the one read-only guard: nil when the database is writable,
// else the method's refusal (CodeUnavailable).
func (a *App) writable(method string) error {
	if a.readOnly == "" {
		return nil
	}
	msg := "This is a read-only copy of a damaged database."
	if what := writers[method]; what != "" {
		msg = "This is a read-only copy of a damaged database; " + what
	}
	return errorf(CodeUnavailable, msg)
}

// guarded refuses c in a read-only copy.
func (a *App) guarded(method string, c call) call {
	return func(args []json.RawMessage) (any, error) {
		if err := a.writable(method); err != nil {
			return nil, err
		}
		return c(args)
	}
}

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
		"Answer":               call2(a.Answer),
		"ResolveInterrupts":    call2e(a.ResolveInterrupts),
		"RespondPermission":    call4e(a.RespondPermission),
		"SaveExport":           call2(a.SaveExport),
		"Notify":               call2e(a.Notify),
		"Status":               call0v(a.Status),
		"SendInput":            call3(a.SendInput), // the files are optional: two-argument calls keep working
		"GetAttachment":        call2(a.GetAttachment),
		"InspectPDF":           call1(a.InspectPDF),
		"Interrupt":            call1e(a.Interrupt),
		"ContinueAnswer":       call1e(a.ContinueAnswer),
		"EditMessage":          call3(a.EditMessage),
		"Regenerate":           call2e(a.Regenerate),
		"SelectBranch":         call2(a.SelectBranch),
		"RemoveQueued":         call2e(a.RemoveQueued),
		"NewThread":            call1(a.NewThread),
		"ListThreads":          call2(a.ListThreads),
		"GetThread":            call1(a.GetThread),
		"RenameThread":         call2e(a.RenameThread),
		"PinThread":            call2e(a.PinThread),
		"DeleteThread":         call1e(a.DeleteThread),
		"SearchHistory":        call2(a.SearchHistory),
		"ExportThread":         call2(a.ExportThread),
		"ImportThread":         call1(a.ImportThread),
		"ImportConversations":  call2(a.ImportConversations),
		"GetSettings":          call0v(a.GetSettings),
		"SaveSettings":         call1(a.SaveSettings),
		"TestConnection":       call1v(a.TestConnection),
		"ListPermissionRules":  call0(a.ListPermissionRules),
		"RevokePermissionRule": call1e(a.RevokePermissionRule),
		"ListRules":            call0(a.ListRules),
		"SetRuleDuration":      call2e(a.SetRuleDuration),
		"AddRule":              call1(a.AddRule),
		"ExportRules":          call0(a.ExportRules),
		"ImportRules":          call1(a.ImportRules),
		"ListLedger":           call1(a.ListLedger),
		"VerifyLedger":         call0(a.VerifyLedger),
		"ExportLedger":         call1(a.ExportLedger),
		"ClearLedger":          call1e(a.ClearLedger),
		"SaveLedgerExport":     call1(a.SaveLedgerExport),
		"SaveRulesExport":      call0(a.SaveRulesExport),
		"CompleteClientTool":   call3e(a.CompleteClientTool),
		"DeleteAllHistory":     call0e(a.DeleteAllHistory),
		"ListMCPServers":       call0(a.ListMCPServers),
		"GetMCPConfig":         call0(a.GetMCPConfig),
		"SaveMCPServer":        call3(a.SaveMCPServer),
		"DeleteMCPServer":      call1(a.DeleteMCPServer),
		"SetMCPServerEnabled":  call2(a.SetMCPServerEnabled),
		"SaveMCPConfigText":    call1(a.SaveMCPConfigText),
		"ImportClaudeConfig":   call1(a.ImportClaudeConfig),
		"RestartMCPServer":     call1e(a.RestartMCPServer),
		"SignInMCPServer":      call1(a.SignInMCPServer),
		"SignOutMCPServer":     call1e(a.SignOutMCPServer),
		"MCPServerLog":         call1(a.MCPServerLog),
		"ListEndpoints":        call0(a.ListEndpoints),
		"GetUpdateStatus":      call0(a.GetUpdateStatus),
		"SaveUpdateSettings":   call1(a.SaveUpdateSettings),
		"CheckForUpdate":       call0(a.CheckForUpdate),
		"ApplyUpdate":          call1(a.ApplyUpdate),
		"TakeLaunchThread":     call0v(a.TakeLaunchThread),
		"SaveEndpoint":         call1(a.SaveEndpoint),
		"DeleteEndpoint":       call1e(a.DeleteEndpoint),
		"StartDemo":            call0(a.StartDemo),
		"ListModels":           call1(a.ListModels),
		"ListPresets":          call0(a.ListPresets),
		"SavePreset":           call1(a.SavePreset),
		"DeletePreset":         call1e(a.DeletePreset),
		"SetThreadOptions":     call2(a.SetThreadOptions),

		// What MCP servers offer beyond tools (mcp_offers.go).
		"ListMCPPrompts":          call0(a.ListMCPPrompts),
		"GetMCPPrompt":            call3(a.GetMCPPrompt),
		"CompleteMCP":             call1(a.CompleteMCP),
		"ListMCPResources":        call0(a.ListMCPResources),
		"ReadMCPResource":         call3(a.ReadMCPResource),
		"ReadMCPResourceTemplate": call3(a.ReadMCPResourceTemplate),
		"OpenAppView":             call2(a.OpenAppView),
		"CallToolFromView":        call1(a.CallToolFromView),
		"MCPLogLevels":            call0(a.MCPLogLevels),
		"SetMCPLogLevel":          call2e(a.SetMCPLogLevel),
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
	"DeleteEndpoint":     "nothing can be changed.",
	"StartDemo":          "nothing can be saved.",
	"SavePreset":         "nothing can be saved.",
	"DeletePreset":       "nothing can be changed.",
	"CallToolFromView":   "tools cannot be called.",
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

// The adapters by the table's short names.
func call0[R any](f func() (R, error)) call                 { return web.Call0(f) }
func call0v[R any](f func() R) call                         { return web.Call0V(f) }
func call0e(f func() error) call                            { return web.Call0E(f) }
func call1[A, R any](f func(A) (R, error)) call             { return web.Call1(f) }
func call1v[A, R any](f func(A) R) call                     { return web.Call1V(f) }
func call1e[A any](f func(A) error) call                    { return web.Call1E(f) }
func call2[A, B, R any](f func(A, B) (R, error)) call       { return web.Call2(f) }
func call2e[A, B any](f func(A, B) error) call              { return web.Call2E(f) }
func call3[A, B, C, R any](f func(A, B, C) (R, error)) call { return web.Call3(f) }
func call3e[A, B, C any](f func(A, B, C) error) call        { return web.Call3E(f) }
func call4e[A, B, C, D any](f func(A, B, C, D) error) call  { return web.Call4E(f) }

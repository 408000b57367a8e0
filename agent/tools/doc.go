// Package tools is Juncture's tool layer: the tools the model may call, the
// registry that checks a call before it runs, and the rules that decide
// whether a call may run without asking.
//
// # Calls
//
// A model's tool call passes through [Registry.Prepare], which resolves the
// tool, normalises the arguments (empty or null becomes {}, keys are sorted
// and duplicates collapsed, so what an approval card shows is exactly what
// runs) and validates them against the tool's JSON Schema. Every problem
// becomes a tool-error [Result] the model can read and correct; nothing in
// this package turns a bad call into a Go error for the runtime.
// [Registry.Execute] runs a prepared call, recovers panics and converts
// errors into error results.
//
// # Stop
//
// A tool declares what Stop does to it with [Tool.OnStop]. A [MustComplete]
// tool runs with a context that is never cancelled by Stop, so a
// half-written file cannot happen; an [Abortable] tool sees the caller's
// context cancelled and must return promptly. The runtime tells the two
// outcomes apart from its own context, never from the result text: if the
// context was cancelled while an Abortable tool ran, the call was
// interrupted mid-run.
//
// # Built-ins
//
// [Builtins] returns the workspace tools: list_files and read_file always,
// write_file and run_command only when [BuiltinOptions.EnableWriteTools] is
// set. Until the approval flow is wired into the runtime those two must not
// be offered, because nothing would ask before they change files or run
// programs. Both set [Tool.NeedsApproval] and [Tool.Preview] for that flow.
//
// File tools are confined to [Workspace.Root]: paths are resolved after
// following symlinks, and anything that lands outside the root is refused
// with a clear error. Every open, stat, read, write, mkdir and rename then
// goes through an [os.Root] opened on the workspace folder, so a symlink
// swapped in after that check cannot carry the operation outside either;
// write_file's temporary file and its rename stay inside the root too.
// run_command is not confined (a shell can reach anything); it only starts
// in the root, which is why it always needs approval.
//
// # Processes
//
// run_command runs each command in a process group of its own (a Job
// Object on Windows) with a minimal environment: PATH, HOME, USER, the
// locale and TMPDIR (on Windows what programs need to start), plus
// [BuiltinOptions.ExtraEnv]. The app's own variables, such as
// OPENAI_API_KEY and JUNCTURE_TOKEN, never reach a command. When the
// command returns, however it ends, whatever it left running is killed.
// On Linux the shell also dies with the app (a parent-death signal); what
// the shell started is ended by [KillAll], which the app calls at
// shutdown. On Windows the job ends with the app whatever happens.
//
// # Client tools
//
// [ClientTools] are run by the app window. Both ask first: open_url opens
// a page, copy_to_clipboard replaces what the person has on the clipboard
// (its card shows the text, [PreviewText]).
//
// # Permission rules
//
// [MatchRule] and [SuggestRules] implement "Always allow". Rules match the
// parsed, normalised arguments and never the raw JSON text: a command rule
// matches whole words of a command that contains no shell control
// operators, and a folder rule matches canonical paths.
package tools

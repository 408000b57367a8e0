package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
	"github.com/juncture-app/juncture/store"
)

// fatigueCall is one call of the scripted conversation and what the
// person would answer on its card.
type fatigueCall struct {
	tool, args string
	refuse     bool // the person declines it when asked
}

// fatigueScript is a 40-call coding conversation: reads, tests, status,
// a few writes and pages, and five calls the person would refuse.
func fatigueScript() []fatigueCall {
	var s []fatigueCall
	add := func(n int, tool, args string, refuse bool) {
		for i := 0; i < n; i++ {
			s = append(s, fatigueCall{tool, strings.ReplaceAll(args, "#", fmt.Sprint(i)), refuse})
		}
	}
	add(8, tools.ToolRunCommand, `{"command":"git status --short"}`, false)
	add(10, tools.ToolReadFile, `{"path":"src/f#.go"}`, false)
	add(6, tools.ToolRunCommand, `{"command":"go test ./pkg#/..."}`, false)
	add(4, tools.ToolWriteFile, `{"path":"src/f#.go","content":"package src"}`, false)
	add(3, tools.ToolOpenURL, `{"url":"https://pkg.go.dev/p#"}`, false)
	add(2, tools.ToolRunCommand, `{"command":"git diff HEAD~#"}`, false)
	add(2, tools.ToolReadFile, `{"path":"secrets/key#.env"}`, true)
	add(2, tools.ToolRunCommand, `{"command":"git push origin main"}`, true)
	add(1, tools.ToolRunCommand, `{"command":"cd build && rm -rf ./out"}`, true)
	add(2, tools.ToolRunCommand, `{"command":"go vet ./pkg#"}`, false)
	return s
}

// TestApprovalFatigue runs the scripted conversation under four rule sets
// with the store's DecideByRule and tools.MatchRule (what the runtime's
// gate uses) and reports the cards the person saw. It asserts that no call
// ran that neither a card nor a rule allowed, and that with argument rules
// (and deny rules) no call the person would refuse ran.
func TestApprovalFatigue(t *testing.T) {
	if testing.Short() {
		t.Skip("a scripted conversation")
	}
	script := fatigueScript()
	if len(script) != 40 {
		t.Fatalf("the script has %d calls; want 40", len(script))
	}
	denies := []history.PermissionRule{
		{ID: "d1", Tool: tools.ToolRunCommand, Scope: history.ScopeCommandPrefix, Pattern: "rm -rf", Effect: history.EffectDeny, Reason: "never rm -rf anything"},
		{ID: "d2", Tool: tools.ToolRunCommand, Scope: history.ScopeCommandPrefix, Pattern: "git push", Effect: history.EffectDeny, Reason: "pushing is mine to do"},
	}
	sets := []struct {
		name     string
		remember func(offered []history.PermissionRule) *history.PermissionRule
		seed     []history.PermissionRule
		safe     bool // no refused call may run
	}{
		{"none", func([]history.PermissionRule) *history.PermissionRule { return nil }, nil, true},
		{"tool-level", func(o []history.PermissionRule) *history.PermissionRule { return &o[len(o)-1] }, nil, false},
		{"argument-level", argumentChoice, nil, true},
		{"argument-level with deny", argumentChoice, denies, true},
	}
	var report []string
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			ctx := context.Background()
			db, err := store.Open(ctx, filepath.Join(t.TempDir(), "juncture.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			ws := fatigueWorkspace(t)
			for _, r := range set.seed {
				if err := db.AddPermissionRule(ctx, r); err != nil {
					t.Fatal(err)
				}
			}
			cards, ran, refusedRan, deniedByRule := 0, 0, 0, 0
			for i, c := range script {
				args := json.RawMessage(c.args)
				rule, decided, err := db.DecideByRule(ctx, store.RuleQuery{Now: int64(i + 1), ThreadID: "t", TurnID: "u", Tool: c.tool, CallID: fmt.Sprint(i), Arguments: c.args},
					func(r history.PermissionRule) bool { return tools.MatchRule(r, c.tool, args, ws) })
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case decided && rule.IsDeny():
					deniedByRule++
					continue
				case decided:
					// A rule let it run: it must really cover the call.
					if !tools.MatchRule(rule, c.tool, args, ws) {
						t.Fatalf("call %d ran under rule %+v that does not cover it", i, rule)
					}
				default:
					cards++
					if c.refuse {
						continue // declined on its card
					}
					if r := set.remember(tools.SuggestRules(c.tool, args, ws)); r != nil {
						r.ID = fmt.Sprintf("r%d", i)
						if err := db.AddPermissionRule(ctx, *r); err != nil {
							t.Fatal(err)
						}
					}
				}
				ran++
				if c.refuse {
					refusedRan++
				}
			}
			if set.safe && refusedRan > 0 {
				t.Errorf("%d calls the person would refuse ran without a card", refusedRan)
			}
			report = append(report, fmt.Sprintf("%-26s cards %2d  ran %2d  denied by rule %d  ran that the person would refuse %d",
				set.name, cards, ran, deniedByRule, refusedRan))
		})
	}
	t.Logf("approval fatigue, 40 calls:\n%s", strings.Join(report, "\n"))
}

// argumentChoice remembers the narrowest offered rule that is not one file
// (the command's prefix, the folder with the file's extension, the host).
func argumentChoice(offered []history.PermissionRule) *history.PermissionRule {
	for _, r := range offered {
		switch r.Scope {
		case history.ScopeCommandPrefix, history.ScopeFolderGlob, history.ScopeHost:
			return &r
		}
	}
	return nil
}

func fatigueWorkspace(t *testing.T) tools.Workspace {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"src", "secrets"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return tools.Workspace{Root: root}
}

package app

import (
	"fmt"
	"os"
	"time"
)

// The desktop window saves the ledger and the rules through a native
// dialog (a web download does nothing in a webview); the browser
// downloads ExportLedger's and ExportRules' text instead.

// SaveLedgerExport writes the ledger as JSON lines or CSV to a file the
// person picks (desktop only). It returns the path, or "" when cancelled.
func (a *App) SaveLedgerExport(format string) (string, error) {
	text, err := a.ExportLedger(format)
	if err != nil {
		return "", err
	}
	return a.saveText(fmt.Sprintf("juncture-ledger-%s.%s", time.Now().Format("2006-01-02"), format), text, 0o600)
}

// SaveRulesExport writes ExportRules' JSON to a file the person picks
// (desktop only). It returns the path, or "" when cancelled.
func (a *App) SaveRulesExport() (string, error) {
	text, err := a.ExportRules()
	if err != nil {
		return "", err
	}
	return a.saveText("juncture-rules.json", text, 0o600)
}

// saveText asks where to save text and writes it there with perm (desktop
// only). It returns the path, or "" when cancelled.
func (a *App) saveText(name, text string, perm os.FileMode) (string, error) {
	d := a.desktopOrNil()
	if d == nil {
		return "", errorf(CodeUnavailable, "Saving through a dialog is only available in the desktop window.")
	}
	path, err := d.SaveFile(name)
	if err != nil {
		return "", errorf(CodeInternal, "The save dialog failed: "+err.Error())
	}
	if path == "" {
		return "", nil
	}
	if err := os.WriteFile(path, []byte(text), perm); err != nil {
		return "", errorf(CodeInternal, fmt.Sprintf("Could not write %s: %v", path, err))
	}
	return path, nil
}

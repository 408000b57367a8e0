package app

import (
	"context"
	"time"
)

// Bound methods take no context (Wails passes none); each bounds its own
// work with callTimeout where it waits on I/O.
const callTimeout = 30 * time.Second

func (a *App) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(a.bgCtx, callTimeout)
}

// Status says whether a model is configured, and where it came from.
type Status struct {
	Mode       string `json:"mode"`
	Configured bool   `json:"configured"`
	Endpoint   string `json:"endpoint"`
	Model      string `json:"model"`
	Detected   string `json:"detected,omitempty"`
	Problem    string `json:"problem,omitempty"`
	ReadOnly   string `json:"readOnly,omitempty"` // path of the read-only copy being browsed
	// SaveProblem says writes are failing now (the disk is full); the
	// window shows it until a write succeeds again.
	SaveProblem string `json:"saveProblem,omitempty"`
	// Bench is JUNCTURE_BENCH=1: the page shows its received-text counter
	// in the window title for scripts/bench-desktop.sh.
	Bench bool `json:"bench,omitempty"`
	// ModelAcceptsImages is the setting: the composer refuses images
	// before sending when it is off.
	ModelAcceptsImages bool `json:"modelAcceptsImages,omitempty"`
}

// Status reports the app's configuration state.
func (a *App) Status() Status {
	st, _ := a.conf.Effective()
	s := Status{Mode: a.cfg.Mode, Endpoint: st.BaseURL, Model: st.Model, ReadOnly: a.readOnly, Bench: a.cfg.Getenv("JUNCTURE_BENCH") == "1",
		ModelAcceptsImages: st.ModelAcceptsImages}
	if a.db != nil && a.db.DiskFull() { // nil: the store did not open
		s.SaveProblem = msgSavingStopped
	}
	s.Detected = a.conf.Detected()
	switch {
	case a.readOnly != "":
		s.Problem = "The history database is damaged. You are browsing a read-only copy; nothing new can be saved."
	case st.BaseURL == "":
		s.Problem = "No model endpoint is configured. Open Settings to choose OpenAI, Ollama, LM Studio, OpenRouter or a custom URL — or set OPENAI_BASE_URL / OPENAI_API_KEY and JUNCTURE_MODEL."
	case st.Model == "":
		s.Problem = "No model is chosen. Open Settings and pick one from the endpoint's list."
	default:
		s.Configured = true
	}
	return s
}

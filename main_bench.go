package main

import (
	"log/slog"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/app"
	"github.com/juncture-app/juncture/app/events"
	"github.com/juncture-app/juncture/internal/benchprobe"
)

// benchEmitter is the window's emitter under JUNCTURE_BENCH=1: it logs the
// runtime's share of each Stop ("bench stop", from the Interrupt call
// reaching Go to the cancelled RUN_FINISHED handed to Wails, and when the
// Interrupt reached Go on the wall clock, which the bench sets against the
// page's Esc key) for scripts/bench-desktop.sh, which reads it from the
// app's log.
type benchEmitter struct {
	app.Emitter
	log *slog.Logger
}

func (e benchEmitter) Emit(name string, data any) {
	e.Emitter.Emit(name, data)
	if name == "mcp" { // a server's status changed: the start-up timeline (bench/startup-timeline.mjs)
		e.log.Info("bench mcp", "epoch_ms", time.Now().UnixMilli())
	}
	switch d := data.(type) {
	case events.AGUIEvent:
		e.check(d)
	case []events.BatchFrame:
		for _, f := range d {
			if ev, ok := f.Data.(events.AGUIEvent); ok {
				e.check(ev)
			}
		}
	}
}

func (e benchEmitter) check(ev events.AGUIEvent) {
	rf, ok := ev.Event.(*agui.RunFinished)
	if !ok || rf.Outcome == nil || rf.Outcome.Type != agui.OutcomeCancelled {
		return
	}
	if at, d, ok := benchprobe.Finished(ev.ThreadID); ok {
		e.log.Info("bench stop", "runtime_us", d.Microseconds(), "interrupt_epoch_us", at.UnixMicro())
	}
}

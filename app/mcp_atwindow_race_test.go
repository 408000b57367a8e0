package app

import (
	"sync"
	"testing"
)

// TestMCPAtWindowStartRacesEditsTurnsAndShutdown: the page's window-ready
// (twice: a reload), a turn's tools and an edit in Settings arrive at
// once (Config.MCPAtWindow): the edit is never undone by the file's
// configuration as read at launch, nothing panics, and a start after
// Shutdown runs nothing. Run it with -race -count=N.
func TestMCPAtWindowStartRacesEditsTurnsAndShutdown(t *testing.T) {
	bin := edgeServer(t)
	f := newMCPFixtureAt(t, `{"mcpServers":{"a":{"command":"`+bin+`","disabled":true},"b":{"command":"`+bin+`","disabled":true}}}`, true)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, fn := range []func(){
		f.svc.StartMCPServers,
		f.svc.StartMCPServers,
		func() { _ = f.svc.App().mcpTools() },
		func() {
			var v MCPConfigView
			if e := f.call(&v, "DeleteMCPServer", "a"); e != nil {
				t.Error(e)
			}
		},
	} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			fn()
		}()
	}
	close(start)
	wg.Wait()
	if got := f.mcpServers(); len(got) != 1 || got[0].Name != "b" {
		t.Fatalf("servers after the start and the edit: %+v, want b alone", got)
	}
	svc := f.svc
	wg.Add(1)
	go func() {
		defer wg.Done()
		svc.StartMCPServers()
	}()
	f.stop()
	wg.Wait()
	svc.StartMCPServers() // after Shutdown: nothing starts, nothing panics
}

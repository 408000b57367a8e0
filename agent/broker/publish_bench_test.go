package broker

import (
	"context"
	"sync"
	"testing"
)

// BenchmarkPublishSnapshot publishes a paused turn's MESSAGES_SNAPSHOT of a
// 2,000-message thread to a window's subscription, with and without a
// browser's resumable stream connected: with one, the ring keeps the
// snapshot by its JSON (encoded in Publish); with the window alone it keeps
// nothing and encodes nothing (the window sends the event typed).
//
//	go test ./agent/broker -run '^$' -bench PublishSnapshot -benchmem
func BenchmarkPublishSnapshot(b *testing.B) {
	snap := snapshotOf(2000)
	for _, tc := range []struct {
		name      string
		resumable bool
	}{{"window-alone", false}, {"browser-connected", true}} {
		b.Run(tc.name, func(b *testing.B) {
			br := NewBroker()
			br.mu.Lock()
			br.replayUntil = br.now() // past start-up's window: only a connected page keeps the ring
			br.mu.Unlock()
			br.retaining.Store(false)
			subs := []*Subscription{br.Subscribe("", SubscribeOptions{Coalesce: 1})} // the window
			if tc.resumable {
				subs = append(subs, br.Subscribe("", SubscribeOptions{Coalesce: 1, Resumable: true}))
			}
			var wg sync.WaitGroup
			for _, s := range subs {
				wg.Add(1)
				go func() { // reads as a transport does, until closed
					defer wg.Done()
					for {
						if _, err := s.NextBatch(context.Background(), nil); err != nil {
							return
						}
					}
				}()
			}
			b.ReportAllocs()
			for b.Loop() {
				br.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: snap})
			}
			b.StopTimer()
			for _, s := range subs {
				s.Close()
			}
			wg.Wait()
		})
	}
}

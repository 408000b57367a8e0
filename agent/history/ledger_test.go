package history

import (
	"strings"
	"testing"
	"time"
)

func TestRedactSecrets(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{"code":{"type":"string","format":"password"},"note":{"type":"string"}}}`)
	got := string(RedactSecrets([]byte(`{"code":"1234","note":"hi","apiKey":"sk-x","author":"ann","nested":{"GITHUB_TOKEN":"t"}}`), schema))
	for _, secret := range []string{"1234", "sk-x", `"t"`} {
		if strings.Contains(got, secret) {
			t.Errorf("%s kept in %s", secret, got)
		}
	}
	for _, kept := range []string{"hi", "ann"} {
		if !strings.Contains(got, kept) {
			t.Errorf("%s lost from %s", kept, got)
		}
	}
	if got := string(RedactSecrets([]byte(`not json`), nil)); got != `"[redacted]"` {
		t.Errorf("unparsable answer = %s", got)
	}
	if got := Shape(`{"b":[1,"x"],"a":true}`); got != `{"a":"<bool>","b":["<number>","<string>"]}` {
		t.Errorf("Shape = %s", got)
	}
}

func TestExpiresFor(t *testing.T) {
	now := time.Date(2026, 12, 2, 23, 50, 0, 0, time.UTC)
	for d, want := range map[string]int64{
		Duration15m: now.Add(15 * time.Minute).UnixMilli(), Duration1h: now.Add(time.Hour).UnixMilli(),
		DurationToday: time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC).UnixMilli(), DurationForever: 0, DurationChat: 0, DurationTurn: 0,
	} {
		if got, err := ExpiresFor(d, now); err != nil || got != want {
			t.Errorf("ExpiresFor(%s) = %d, %v; want %d", d, got, err, want)
		}
	}
	if _, err := ExpiresFor("a week", now); err == nil {
		t.Error("an unknown duration was accepted")
	}
}

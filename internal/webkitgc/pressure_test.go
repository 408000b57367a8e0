package webkitgc

import (
	"strings"
	"testing"
	"time"
)

func TestPressureFrom(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		set         bool
		want        Pressure
		ok          bool
		err         string
	}{
		{name: "unset: the window's", want: WindowPressure, ok: true},
		{name: "empty: the window's", value: " ", set: true, want: WindowPressure, ok: true},
		{name: "off", value: "off", set: true},
		{name: "zero is off", value: "0", set: true},
		{name: "OFF is off", value: " OFF ", set: true},
		{name: "a bound", value: "240", set: true, want: Pressure{TrimAtMiB: 220, ReleaseAtMiB: 240, Poll: WindowPressure.Poll}, ok: true},
		{name: "spaces", value: " 120 ", set: true, want: Pressure{TrimAtMiB: 110, ReleaseAtMiB: 120, Poll: WindowPressure.Poll}, ok: true},
		{name: "not a number", value: "lots", set: true, want: WindowPressure, ok: true, err: "want a number of MiB or off"},
		{name: "negative", value: "-5", set: true, want: WindowPressure, ok: true, err: "want a number"},
		{name: "huge", value: "99999999999", set: true, want: WindowPressure, ok: true, err: "want a number"},
		{name: "at the limit", value: "4096", set: true, want: WindowPressure, ok: true, err: "out of range"},
		{name: "too small for a trim below it", value: "1", set: true, want: WindowPressure, ok: true, err: "trim threshold 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok, err := pressureFrom(tc.value, tc.set)
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("err = %v, want %q", err, tc.err)
			}
			if got != tc.want || ok != tc.ok {
				t.Fatalf("got %+v, %v; want %+v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

// What WebKit is handed: fractions of a limit above both thresholds, the
// trim below the release, the poll in seconds; and WindowPressure itself
// is valid.
func TestPressureSettings(t *testing.T) {
	if err := WindowPressure.valid(); err != nil {
		t.Fatal(err)
	}
	limit, conservative, strict, poll := Pressure{TrimAtMiB: 1024, ReleaseAtMiB: 2048, Poll: 45 * time.Second}.settings()
	if limit != limitMiB || conservative != 0.25 || strict != 0.5 || poll != 45 {
		t.Fatalf("settings = %d %v %v %v", limit, conservative, strict, poll)
	}
	for _, p := range []Pressure{
		{TrimAtMiB: 90, ReleaseAtMiB: 90, Poll: time.Minute},
		{TrimAtMiB: 0, ReleaseAtMiB: 90, Poll: time.Minute},
		{TrimAtMiB: 80, ReleaseAtMiB: 90, Poll: time.Millisecond},
	} {
		if p.valid() == nil {
			t.Errorf("%+v accepted", p)
		}
	}
}

// A hostile JUNCTURE_WEB_MEMORY_MIB (a pasted token, a megabyte of text)
// is not copied whole into the log, twice (the message and strconv's own),
// and "00" is off as "0" is.
func TestPressureFromHostileValue(t *testing.T) {
	long := strings.Repeat("sk-secretsecret", 10000)
	_, ok, err := pressureFrom(long, true)
	if !ok || err == nil {
		t.Fatalf("ok=%v err=%v", ok, err)
	}
	if len(err.Error()) > 200 || strings.Count(err.Error(), "sk-secret") > 1 {
		t.Fatalf("the error echoes the value: %d bytes, %d copies of its start", len(err.Error()), strings.Count(err.Error(), "sk-secret"))
	}
	if _, ok, err := pressureFrom("00", true); ok || err != nil {
		t.Fatalf(`"00": ok=%v err=%v, want off as "0"`, ok, err)
	}
}

package sandbox

import (
	"errors"
	"strings"
	"testing"
)

func TestPolicyCheck(t *testing.T) {
	tests := []struct {
		name string
		p    Policy
		bad  string
	}{
		{"default", Policy{}, ""},
		{"ports", Policy{Network: NetPorts, Ports: []uint16{443}}, ""},
		{"unknown mode", Policy{Network: "some"}, "network must be"},
		{"ports without mode", Policy{Network: NetAny, Ports: []uint16{80}}, "only used with"},
		{"port zero", Policy{Network: NetPorts, Ports: []uint16{0}}, "port 0"},
		{"relative folder", Policy{Write: []string{"notes"}}, "not an absolute path"},
	}
	for _, tt := range tests {
		err := tt.p.Check()
		if tt.bad == "" && err != nil || tt.bad != "" && (err == nil || !strings.Contains(err.Error(), tt.bad)) {
			t.Errorf("%s: Check() = %v, want %q", tt.name, err, tt.bad)
		}
	}
}

func TestStatusString(t *testing.T) {
	tests := []struct {
		st   Status
		want string
	}{
		{Status{Mechanism: Landlock, Write: []string{"/ws"}, Network: "none"},
			"sandbox: landlock (writes: /ws, a private temporary folder; network: none)"},
		{Status{Mechanism: Bwrap, Write: []string{"/ws", "/notes"}, Network: "any", Reason: "network not confined"},
			"sandbox: bwrap (writes: /ws, /notes, a private temporary folder; network: any; network not confined)"},
		{Status{Mechanism: None, Reason: "Landlock is unavailable (x); bwrap is not installed"},
			"sandbox: none (Landlock is unavailable (x); bwrap is not installed)"},
		{Status{}, "sandbox: none"},
	}
	for _, tt := range tests {
		if got := tt.st.String(); got != tt.want {
			t.Errorf("String() =\n%s\nwant\n%s", got, tt.want)
		}
	}
}

func TestExplain(t *testing.T) {
	st := Status{Mechanism: Landlock, Write: []string{"/ws"}, Network: "none"}
	if got := Explain(st, "sh: 1: cannot create /home/x/.ssh/x: Permission denied\n"); !strings.Contains(got, "The sandbox (landlock) refused") || !strings.Contains(got, "/ws") {
		t.Errorf("Explain = %q", got)
	}
	if got := Explain(st, "all fine\n"); got != "" {
		t.Errorf("Explain of clean output = %q", got)
	}
	if got := Explain(Status{Mechanism: None}, "Permission denied"); got != "" {
		t.Errorf("Explain unconfined = %q", got)
	}
}

// TestProfile checks the macOS profile as text: writes denied then
// allowed again below the folders (passed as parameters, so a folder name
// cannot change the profile), and the network per mode.
func TestProfile(t *testing.T) {
	evil := `/ws/") (allow file-write* (subpath "/`
	prof, params := Profile(Policy{Write: []string{evil}, Network: NetNone}, "/tmp/j")
	for _, want := range []string{"(deny file-write*)", `(subpath (param "W0"))`, `(subpath (param "W1"))`,
		`(literal "/dev/null")`, `(deny network-outbound (remote ip "*:*"))`, `(deny network-bind (local ip "*:*"))`} {
		if !strings.Contains(prof, want) {
			t.Errorf("profile lacks %s:\n%s", want, prof)
		}
	}
	if strings.Contains(prof, evil) {
		t.Errorf("a folder name reached the profile text:\n%s", prof)
	}
	if len(params) != 2 || params[0] != "W0="+evil || params[1] != "W1=/tmp/j" {
		t.Errorf("params = %q", params)
	}
	if strings.Index(prof, "(deny file-write*)") > strings.Index(prof, "(allow file-write*") {
		t.Error("the allow must come after the deny (Seatbelt applies the last match)")
	}

	ports, _ := Profile(Policy{Network: NetPorts, Ports: []uint16{443, 8080}}, "/t")
	for _, want := range []string{`(allow network-outbound (remote tcp "*:443"))`, `(allow network-outbound (remote tcp "*:8080"))`} {
		if !strings.Contains(ports, want) {
			t.Errorf("ports profile lacks %s:\n%s", want, ports)
		}
	}
	local, _ := Profile(Policy{Network: NetLocal}, "/t")
	if !strings.Contains(local, `(allow network-outbound (remote ip "localhost:*"))`) {
		t.Errorf("local profile:\n%s", local)
	}
	if anyNet, _ := Profile(Policy{Network: NetAny}, "/t"); strings.Contains(anyNet, "network") {
		t.Errorf("any-network profile mentions the network:\n%s", anyNet)
	}
	args := seatbeltArgs("/usr/bin/sandbox-exec", Policy{Write: []string{"/ws"}}, "/t")
	if args[1] != "-p" || args[3] != "-D" || args[4] != "W0=/ws" || args[6] != "W1=/t" {
		t.Errorf("sandbox-exec args = %q", args)
	}
}

func TestOffSaysSo(t *testing.T) {
	st, cleanup, err := New(Options{Off: true}).Wrap(nil, Policy{})
	defer cleanup()
	if err != nil || st.Confined() || !strings.Contains(st.String(), "turned off") {
		t.Errorf("Wrap when off = %v, %v", st, err)
	}
	t.Setenv("JUNCTURE_SANDBOX", "off")
	st, _, _ = New(Options{}).Wrap(nil, Policy{})
	if st.Confined() || !strings.Contains(st.String(), "JUNCTURE_SANDBOX=off") {
		t.Errorf("Wrap with JUNCTURE_SANDBOX=off = %v", st)
	}
}

func TestBadPolicyRefused(t *testing.T) {
	if _, _, err := New(Options{}).Wrap(nil, Policy{Network: "everywhere"}); err == nil {
		t.Error("Wrap accepted an unknown network mode")
	}
}

var errNoLandlock = errors.New("function not implemented")

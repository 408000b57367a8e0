package sandbox

import (
	"slices"
	"testing"
)

// TestPublicOnlyDropsLocalNetworks: a listed name that resolves to an
// address of this machine or a local network is not dialed, whichever
// way the address is written: carrier-grade NAT (100.64.0.0/10, where
// Tailscale's machines live), "this network" (0.0.0.0/8), IPv4 embedded in
// NAT64 (64:ff9b::/96 and 64:ff9b:1::/48) or IPv4-mapped, site-local
// IPv6, broadcast and the reserved 240.0.0.0/4.
func TestPublicOnlyDropsLocalNetworks(t *testing.T) {
	local := []string{
		"127.0.0.1", "10.1.2.3", "192.168.1.1", "169.254.169.254", "::1", "fd00::1", "fe80::1", "0.0.0.0",
		"100.64.0.1", "100.127.255.254", "0.1.2.3", "64:ff9b::a00:1", "64:ff9b::7f00:1", "64:ff9b:1::c0a8:101",
		"::ffff:10.0.0.1", "fec0::1", "255.255.255.255", "240.0.0.1",
	}
	for _, a := range local {
		if got := publicOnly([]string{a}); len(got) != 0 {
			t.Errorf("publicOnly(%s) = %q, want nothing", a, got)
		}
	}
	public := []string{"93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "100.128.0.1", "64:ff9b::5db8:d70e"}
	if got := publicOnly(public); !slices.Equal(got, public) {
		t.Errorf("publicOnly(%q) = %q", public, got)
	}
}

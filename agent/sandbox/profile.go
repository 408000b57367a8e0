package sandbox

import (
	"fmt"
	"strings"
)

// Profile is the macOS sandbox-exec (Seatbelt) profile for p, and the -D
// parameters it reads its folders from. The folders are passed as
// parameters, never spliced into the profile text, so no folder name can
// change the profile. It lives here, without a build tag, so that it is
// tested as text on every system.
//
// Seatbelt applies the last rule that matches: everything is allowed,
// then every file write is denied, then writes below the writable folders
// (and a few device files) are allowed again; the network likewise.
func Profile(p Policy, tmp string) (profile string, params []string) {
	var b strings.Builder
	b.WriteString("(version 1)\n(allow default)\n(deny file-write*)\n(allow file-write*\n")
	for i, w := range append(append([]string{}, p.Write...), tmp) {
		key := fmt.Sprintf("W%d", i)
		params = append(params, key+"="+w)
		fmt.Fprintf(&b, "  (subpath (param %q))\n", key)
	}
	for _, dev := range []string{"/dev/null", "/dev/zero", "/dev/tty", "/dev/dtracehelper"} {
		fmt.Fprintf(&b, "  (literal %q)\n", dev)
	}
	b.WriteString(")\n")
	switch p.Network {
	case NetAny:
	case NetLocal:
		b.WriteString("(deny network-outbound (remote ip \"*:*\"))\n(allow network-outbound (remote ip \"localhost:*\"))\n")
	case NetPorts:
		b.WriteString("(deny network-outbound (remote ip \"*:*\"))\n(deny network-bind (local ip \"*:*\"))\n")
		for _, port := range p.Ports {
			fmt.Fprintf(&b, "(allow network-outbound (remote tcp \"*:%d\"))\n", port)
		}
	default: // NetNone
		b.WriteString("(deny network-outbound (remote ip \"*:*\"))\n(deny network-bind (local ip \"*:*\"))\n")
	}
	return b.String(), params
}

// seatbeltArgs is sandbox-exec's command line up to the program.
func seatbeltArgs(sandboxExec string, p Policy, tmp string) []string {
	profile, params := Profile(p, tmp)
	args := []string{sandboxExec, "-p", profile}
	for _, kv := range params {
		args = append(args, "-D", kv)
	}
	return args
}

// Package sandbox confines the programs Juncture starts for the model
// (run_command, stdio MCP servers) to the workspace and a network policy.
//
// # Guarantees
//
// Wrap rewrites an *exec.Cmd so that the program runs confined, and
// returns a Status that says how: the mechanism ("landlock", "bwrap",
// "sandbox-exec" or "none") and, when it is not the strongest one, why.
// A program is never run less confined than its Status says, and a Status
// of "none" is always reported to the person (tool result, approval card,
// server status): nothing here falls back silently.
//
// Juncture's own process is never restricted: on Linux the rules are
// applied in a re-executed child of Juncture (MaybeRunChild, the first
// call of main and of TestMain in the packages that start programs),
// which then execs the program, so the rules hold for the program and
// everything it starts.
//
// # What is enforced where
//
// Reads are confined to the same set everywhere they are confined
// (readSet): the system's folders, the program's own files (its folder,
// its PATH, the node_modules of a script argument, a tool's hidden folder
// below home), Policy.Write and Policy.Read; never the home folder, a
// folder above it or /.
//
// Network NetLocal and NetHosts go through a filtering proxy (proxy.go)
// started on loopback for each wrapped program and stopped by Wrap's
// cleanup: the program's proxy variables point at it, and the confiner
// holds the program to the proxy's port (NetPorts), where it can
// (enforcesPorts); elsewhere the Status says the network is not confined.
// Landlock's TCP rules name ports, not addresses: the proxy's port is
// open on every host, and the Status says so (proxyPortCaveat).
//
// Linux with Landlock (ABI 1 and later; the rules are downgraded to what
// the kernel offers, and the Status names the ABI):
//   - writes (create, delete, rename, truncate, write) only below
//     Policy.Write, a private temporary folder (TMPDIR) and a few device
//     files (/dev/null, /dev/zero, /dev/full, /dev/tty, /dev/shm);
//   - reads and execution only of readSet and the writable folders;
//   - TCP connect and bind (ABI 4+): NetNone refuses all, NetPorts allows
//     connecting to the listed ports on any host, NetLocal and NetHosts
//     only the proxy's port, NetAny leaves TCP alone. UDP is confined only
//     from ABI 10 on, pathname UNIX sockets from ABI 9 on;
//   - signals and abstract UNIX sockets towards processes outside the
//     sandbox are refused (ABI 6+);
//   - /proc is readable, other processes' secrets in it are not: Landlock's
//     ptrace scoping refuses environ, maps, mem and the fd links of a
//     process outside the sandbox to a program without capabilities (seen
//     as a non-root user on Linux 6.18). A program holding CAP_SYS_PTRACE,
//     CAP_SYS_ADMIN or CAP_PERFMON got past it (root), so the confining
//     child drops those from its bounding set (dropProcessCaps).
//
// Juncture's own process is made non-dumpable on Linux (protectProcess,
// in MaybeRunChild): its /proc files then need CAP_SYS_PTRACE, which
// covers the programs Landlock does not confine (bwrap's, unconfined
// servers). Programs it starts are dumpable again after their exec
// (WebKit's processes, the confining child); Juncture itself cannot be
// profiled by attaching nor dump core without root. Decided against: a
// PID namespace for the Landlock child (needs unprivileged user
// namespaces, which some distributions forbid) and scrubbing Juncture's
// own environment (the kernel keeps the initial block in environ).
//
// Linux without Landlock, with bubblewrap (bwrap) installed: an empty
// read-only root with readSet bound read-only, Policy.Write and the
// private temporary folder bound writable, a PID namespace of its own
// (its /proc shows only its processes: bwrap has no ptrace scoping), and
// for NetNone a network namespace of its own (no network at all). NetLocal, NetPorts and
// NetHosts are not enforced by bwrap (the Status says so).
//
// macOS: sandbox-exec with a profile generated from the same policy
// (Profile): writes as on Linux, network by port or to localhost (the
// proxy's port for NetLocal and NetHosts); reads are not confined.
//
// Windows (windows.go, planned by planWindows, which is tested on every
// system): a low-integrity token, the writable folders labeled low, and
// the Job Object of WindowsJob (kill on close, a process limit, no
// breakaway) made where the program is started (agent/tools). Reads and
// the network are not confined there; the Status says so. Built, not run,
// in this repository's CI.
//
// Other systems: not confined ("none"): the Status says so.
package sandbox

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
// Linux with Landlock (ABI 1 and later; the rules are downgraded to what
// the kernel offers, and the Status names the ABI):
//   - writes (create, delete, rename, truncate, write) only below
//     Policy.Write, a private temporary folder (TMPDIR) and a few device
//     files (/dev/null, /dev/zero, /dev/full, /dev/tty, /dev/shm);
//   - reads and execution anywhere the person may read (reads are not
//     confined: programs installed under the home folder must keep working);
//   - TCP connect and bind (ABI 4+): NetNone refuses all, NetPorts allows
//     connecting to the listed ports on any host, NetAny leaves TCP alone.
//     NetLocal cannot be told apart from NetAny by Landlock (it filters
//     ports, not addresses) and is reported as not enforced. UDP is
//     confined only from ABI 10 on, pathname UNIX sockets from ABI 9 on;
//   - signals and abstract UNIX sockets towards processes outside the
//     sandbox are refused (ABI 6+).
//
// Linux without Landlock, with bubblewrap (bwrap) installed: a read-only
// view of the whole file system with Policy.Write and the private
// temporary folder bound writable, and for NetNone a network
// namespace of its own (no network at all). NetLocal and NetPorts are not
// enforced by bwrap (the Status says so).
//
// macOS: sandbox-exec with a profile generated from the same policy
// (Profile): writes as on Linux, network by port or to localhost.
//
// Windows and other systems: not confined ("none"): the Status says so.
// On Windows the program still runs in a kill-on-close Job Object (see
// agent/tools), which bounds its life, not its rights.
package sandbox

// Package exeprefetch asks the kernel, as the process starts, to read the
// running executable into the page cache in one sequential pass.
//
// Why: a cold launch (after a reboot, or once the page cache dropped the
// binary) reads nearly all of Juncture's binary before the composer takes
// its first key (scripts/bench-desktop.sh's start-up: 44.5 of 44.6 MiB of
// the stripped desktop binary were resident at the first key, measured with
// mincore after evicting it). Left to page faults, those reads come as a
// few hundred 128 KiB read-arounds, each one stalling the thread that
// faulted, mostly the main thread in package init and GTK's start. One
// POSIX_FADV_WILLNEED over the whole file queues the same bytes as a
// sequential read the disk serves while the process goes on. It reads
// nothing the launch would not read anyway, and costs nothing warm (the
// pages are already cached, the advice returns at once).
//
// Importing the package is what starts it: its init runs before the heavy
// inits of the dependencies whose import paths sort after it
// (santhosh-tekuri/jsonschema, golang.org/x/net/html, modernc.org/…), as
// Go initializes ready packages in import-path order.
package exeprefetch

// Package threads is the threads as the window lists, shows and exports them.
//
// A page of threads with what each is doing now (a turn running,
// decisions waiting), one thread with its messages and live state, whether
// closing would cut something short, search's bounds; and what a thread
// is made from: a preset, a change of its options checked whole, an
// export and its file name. The facade forwards to it and maps the errors.
package threads

// Package config keeps the person's model configuration: settings,
// endpoints, presets and the local servers found on this machine.
//
// A Catalog holds it all behind its own locks and saves it in the settings
// table (Rows) and the key vault (package secrets); it is used and tested
// without starting an app.
//
// Guarantees:
//   - The environment wins over saved values for the start it is set in;
//     Effective says where each value comes from.
//   - A change is checked whole: an invalid field refuses it (an *Error
//     of kind Invalid with a message per field) and nothing is saved.
//   - The settings table keeps no key: rows go through the vault
//     (secrets.StripRows), and a key that could not be read is kept, never
//     taken for an empty one.
//   - A key goes only to the endpoint it was saved with: the same
//     normalised base URL (SameEndpoint), sent by a client that follows no
//     redirect to another origin (KeyedHTTPClient).
//   - The well-known providers are listed once, in Providers; the local
//     ones are probed at most every 30 s, and a probe never holds the
//     catalog's lock.
package config

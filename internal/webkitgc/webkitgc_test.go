package webkitgc

import (
	"errors"
	"slices"
	"testing"
)

// apply sets each option the environment does not already say something
// for (an empty value counts as said), and stops at a failure to set one.
func TestApply(t *testing.T) {
	first, second := Settings[0], Settings[1]
	for _, tc := range []struct {
		name     string
		env      map[string]string
		failAt   string
		wantDone int
		want     map[string]string
		wantErr  bool
	}{
		{name: "none set", env: map[string]string{}, wantDone: len(Settings), want: map[string]string{first.Name: first.Value, second.Name: second.Value}},
		{name: "a person's value wins", env: map[string]string{first.Name: "16384"}, wantDone: len(Settings) - 1, want: map[string]string{first.Name: "16384", second.Name: second.Value}},
		{name: "set empty is still set", env: map[string]string{first.Name: ""}, wantDone: len(Settings) - 1, want: map[string]string{first.Name: ""}},
		{name: "setenv fails", env: map[string]string{}, failAt: second.Name, wantDone: 1, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lookup := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
			set := func(k, v string) error {
				if k == tc.failAt {
					return errors.New("no")
				}
				tc.env[k] = v
				return nil
			}
			done, err := apply(lookup, set)
			if (err != nil) != tc.wantErr || len(done) != tc.wantDone {
				t.Fatalf("apply = %v, %v; want %d set, error %v", done, err, tc.wantDone, tc.wantErr)
			}
			for k, v := range tc.want {
				if got, ok := tc.env[k]; !ok || got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			if tc.wantErr && !slices.Contains(done, first.Name+"="+first.Value) {
				t.Errorf("done = %v, want the first setting reported before the failure", done)
			}
		})
	}
}

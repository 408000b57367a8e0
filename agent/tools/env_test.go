package tools

import (
	"strings"
	"testing"
)

func TestBuildEnv(t *testing.T) {
	t.Parallel()
	keep := []string{"PATH", "HOME", "LANG", "SystemRoot"}
	environ := []string{
		"PATH=/usr/bin", "OPENAI_API_KEY=sk-x", "HOME=/home/me", "JUNCTURE_TOKEN=t",
		"LANG=C.UTF-8", "SYSTEMROOT=C:\\Windows", "=C:=C:\\dir", "NOEQUALS", "Path=C:\\bin",
	}
	tests := []struct {
		name    string
		extra   map[string]string
		fold    bool
		want    string
		errWant string
	}{
		{name: "only the kept names", want: "PATH=/usr/bin HOME=/home/me LANG=C.UTF-8"},
		{name: "extra is added, sorted", extra: map[string]string{"ZED": "z", "GIT_PAGER": "cat"},
			want: "PATH=/usr/bin HOME=/home/me LANG=C.UTF-8 GIT_PAGER=cat ZED=z"},
		{name: "extra wins over the inherited value", extra: map[string]string{"LANG": "de_DE.UTF-8"},
			want: "PATH=/usr/bin HOME=/home/me LANG=de_DE.UTF-8"},
		{name: "extra may pass a secret on purpose", extra: map[string]string{"OPENAI_API_KEY": "sk-mine"},
			want: "PATH=/usr/bin HOME=/home/me LANG=C.UTF-8 OPENAI_API_KEY=sk-mine"},
		{name: "windows names fold", fold: true,
			want: "PATH=/usr/bin HOME=/home/me LANG=C.UTF-8 SYSTEMROOT=C:\\Windows Path=C:\\bin"},
		{name: "windows override folds", fold: true, extra: map[string]string{"path": "D:\\bin"},
			want: "HOME=/home/me LANG=C.UTF-8 SYSTEMROOT=C:\\Windows path=D:\\bin"},
		{name: "empty name", extra: map[string]string{"": "x"}, errWant: "is not valid"},
		{name: "name with =", extra: map[string]string{"A=B": "x"}, errWant: `"A=B" is not valid`},
		{name: "NUL in the value", extra: map[string]string{"A": "x\x00y"}, errWant: `"A" is not valid`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := buildEnv(environ, keep, tc.extra, tc.fold)
			if tc.errWant != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errWant) {
					t.Fatalf("err = %v, want %q", err, tc.errWant)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s := strings.Join(got, " "); s != tc.want {
				t.Errorf("env = %s\nwant  %s", s, tc.want)
			}
		})
	}
}

// An empty environment must stay empty: a nil exec.Cmd.Env would hand the
// command the app's whole environment.
func TestBuildEnvNeverNil(t *testing.T) {
	t.Parallel()
	if got, err := buildEnv([]string{"SECRET=x"}, []string{"PATH"}, nil, false); err != nil || got == nil || len(got) != 0 {
		t.Errorf("buildEnv = %#v, %v; want an empty, non-nil list", got, err)
	}
}

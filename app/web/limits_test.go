package web

import "testing"

func TestMiBSaysTheLimit(t *testing.T) {
	for n, want := range map[int64]string{8 << 20: "8 MiB", callBodyImportConversations: "129 MiB", callBodySendInput: "70.7 MiB"} {
		if got := mib(n); got != want {
			t.Errorf("mib(%d) = %q, want %q", n, got, want)
		}
	}
}

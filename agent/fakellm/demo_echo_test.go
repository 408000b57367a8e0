package fakellm

import (
	"strings"
	"testing"
)

func TestDemoEchoesTheModelAndTheSystemMessage(t *testing.T) {
	t.Parallel()
	d := &demo{}
	respond := d.withEcho(d.respond)
	cases := []struct {
		name string
		req  Request
		want []string
		not  []string
	}{
		{"system message and model", Request{Model: "model-x", Messages: []RequestMessage{
			{Role: "system", Content: "You are Juncture.\n\nAnswer like a pirate."},
			{Role: "user", Content: "Please ECHO instructions"},
		}}, []string{"Model `model-x` answering.", "> You are Juncture.", "> Answer like a pirate."}, nil},
		{"no system message", Request{Messages: []RequestMessage{{Role: "user", Content: "echo instructions"}}},
			[]string{"Model `fake-model` answering.", "I received no system message."}, nil},
		{"other messages go on to the demo", Request{Messages: []RequestMessage{{Role: "user", Content: "hello"}}},
			nil, []string{"answering."}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			text := textOf(respond(tc.req))
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("answer lacks %q:\n%s", w, text)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(text, w) {
					t.Errorf("answer has %q:\n%s", w, text)
				}
			}
		})
	}
}

package web

import (
	"encoding/json"
	"fmt"
)

// Call runs one method with the JSON of its arguments. The facade's
// method table is written out with the adapters below, not found by
// reflection, so the compiler checks each signature and the linker can
// drop what nothing calls.
type Call func(args []json.RawMessage) (any, error)

// argError says which argument did not decode.
type argError struct {
	n   int
	err error
}

func (e *argError) Error() string { return fmt.Sprintf("argument %d: %v", e.n, e.err) }

// countError says how many arguments a method takes at most.
type countError struct{ want, got int }

func (e *countError) Error() string {
	return fmt.Sprintf("takes at most %d argument(s), got %d", e.want, e.got)
}

// decode decodes each argument into its pointer, in order. Trailing
// arguments left out keep their zero value, as in the desktop transport
// (which pads every call to its arity with null): arguments added in a
// later version are optional for scripts and older clients. More
// arguments than the method takes are refused.
func decode(args []json.RawMessage, ptrs ...any) error {
	if len(args) > len(ptrs) {
		return &countError{want: len(ptrs), got: len(args)}
	}
	for i, arg := range args {
		if err := json.Unmarshal(arg, ptrs[i]); err != nil {
			return &argError{n: i + 1, err: err}
		}
	}
	return nil
}

// Call0 adapts a method of no arguments.
func Call0[R any](f func() (R, error)) Call {
	return func(args []json.RawMessage) (any, error) {
		if err := decode(args); err != nil {
			return nil, err
		}
		return f()
	}
}

// Call0V adapts a method of no arguments that cannot fail.
func Call0V[R any](f func() R) Call {
	return Call0(func() (R, error) { return f(), nil })
}

// Call0E adapts a method of no arguments that returns only an error.
func Call0E(f func() error) Call {
	return Call0(func() (any, error) { return nil, f() })
}

// Call1 adapts a method of one argument.
func Call1[A, R any](f func(A) (R, error)) Call {
	return func(args []json.RawMessage) (any, error) {
		var a A
		if err := decode(args, &a); err != nil {
			return nil, err
		}
		return f(a)
	}
}

// Call1V adapts a method of one argument that cannot fail.
func Call1V[A, R any](f func(A) R) Call {
	return Call1(func(a A) (R, error) { return f(a), nil })
}

// Call1E adapts a method of one argument that returns only an error.
func Call1E[A any](f func(A) error) Call {
	return Call1(func(a A) (any, error) { return nil, f(a) })
}

// Call2 adapts a method of two arguments.
func Call2[A, B, R any](f func(A, B) (R, error)) Call {
	return func(args []json.RawMessage) (any, error) {
		var a A
		var b B
		if err := decode(args, &a, &b); err != nil {
			return nil, err
		}
		return f(a, b)
	}
}

// Call2E adapts a method of two arguments that returns only an error.
func Call2E[A, B any](f func(A, B) error) Call {
	return Call2(func(a A, b B) (any, error) { return nil, f(a, b) })
}

// Call3 adapts a method of three arguments.
func Call3[A, B, C, R any](f func(A, B, C) (R, error)) Call {
	return func(args []json.RawMessage) (any, error) {
		var a A
		var b B
		var c C
		if err := decode(args, &a, &b, &c); err != nil {
			return nil, err
		}
		return f(a, b, c)
	}
}

// Call3E adapts a method of three arguments that returns only an error.
func Call3E[A, B, C any](f func(A, B, C) error) Call {
	return Call3(func(a A, b B, c C) (any, error) { return nil, f(a, b, c) })
}

// Call4E adapts a method of four arguments that returns only an error.
func Call4E[A, B, C, D any](f func(A, B, C, D) error) Call {
	return func(args []json.RawMessage) (any, error) {
		var a A
		var b B
		var c C
		var d D
		if err := decode(args, &a, &b, &c, &d); err != nil {
			return nil, err
		}
		return nil, f(a, b, c, d)
	}
}

package config

// Kind says why a change was refused.
type Kind int

const (
	// Invalid: fields need a fix (Fields holds a message per field).
	Invalid Kind = iota
	// NotFound: the endpoint or preset no longer exists.
	NotFound
	// Refused: the change cannot be made (an endpoint from the
	// environment, the default preset).
	Refused
)

// Error is a refused change; Message is written for the person.
type Error struct {
	Kind    Kind
	Message string
	Fields  map[string]string
}

func (e *Error) Error() string { return e.Message }

func invalidSettings(bad map[string]string) error {
	return &Error{Kind: Invalid, Message: "Some settings need a fix; nothing was saved.", Fields: bad}
}

func invalidFields(bad map[string]string) error {
	return &Error{Kind: Invalid, Message: "Some fields need a fix; nothing was saved.", Fields: bad}
}

func notFound(msg string) error { return &Error{Kind: NotFound, Message: msg} }

func refused(msg string) error { return &Error{Kind: Refused, Message: msg} }

package app

import (
	"github.com/juncture-app/juncture/app/errmap"
	"github.com/juncture-app/juncture/app/web"
)

// Error codes the frontend can rely on (the wire's, package web).
const (
	CodeNotImplemented  = web.CodeNotImplemented
	CodeNotConfigured   = web.CodeNotConfigured
	CodeNotFound        = web.CodeNotFound
	CodeInvalidArgument = web.CodeInvalidArgument
	CodeInvalidSettings = web.CodeInvalidSettings
	CodeConflict        = web.CodeConflict
	CodeInternal        = web.CodeInternal
	CodeUnavailable     = web.CodeUnavailable
	CodePending         = web.CodePending
	CodeDiskFull        = web.CodeDiskFull
)

// Error is what a bound method returns on failure: the wire's object,
// the same through both transports (web.Error).
type Error = web.Error

// AsError maps any error to the window's Error (web.Facade).
func (s *Service) AsError(err error) *Error { return asError(err) }

func errorf(code, msg string) *Error { return &Error{Code: code, Message: msg} }

// asError maps any error to an *Error with a user-facing code (errmap.Map).
func asError(err error) *Error { return errmap.Map(err) }

// asErrorOrNil is asError as an error, nil for nil (errmap.OrNil).
func asErrorOrNil(err error) error { return errmap.OrNil(err) }

package app

import (
	"errors"
	"fmt"

	"github.com/juncture-app/juncture/app/demo"
)

// DemoEndpointName is the saved endpoint StartDemo creates.
const DemoEndpointName = demo.EndpointName

// DemoModel is the one model the demo server lists.
const DemoModel = demo.Model

// StartDemo starts the offline demo model (package demo) and makes its
// endpoint ("Offline demo") the default, creating it the first time.
// Calling it again reuses the running server and the saved endpoint.
func (a *App) StartDemo() (Endpoint, error) {
	if err := a.writable("StartDemo"); err != nil {
		return Endpoint{}, err
	}
	ctx, cancel := a.ctx()
	defer cancel()
	e, err := a.demo.Start(ctx, a.conf)
	var se *demo.StartError
	if errors.As(err, &se) {
		return Endpoint{}, errorf(CodeUnavailable, fmt.Sprintf("Could not start the offline demo: %v", se.Err))
	}
	return e, asErrorOrNil(err)
}

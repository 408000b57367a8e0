package config

import "context"

// FindSaved returns the first saved endpoint match accepts, key in clear.
// It does not probe the local servers (ListEndpoints does), so the app's
// start can call it without waiting on the network.
func (c *Catalog) FindSaved(ctx context.Context, match func(Endpoint) bool) (Endpoint, bool, error) {
	done, err := c.open(ctx)
	if err != nil {
		return Endpoint{}, false, err
	}
	defer done()
	for _, e := range c.endpointsLocked() {
		if e.Source == EndpointSaved && match(e) {
			return e, true, nil
		}
	}
	return Endpoint{}, false, nil
}

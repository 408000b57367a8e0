package config

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/url"
	"strings"
	"syscall"

	"github.com/juncture-app/juncture/agent/model"
)

// ConnectionProblem says in words why listing base's models failed, for
// Test connection: the cause a person can act on (a name that does not
// resolve, nothing listening, no answer in time, a certificate), not Go's
// error chain. An error it does not know keeps its own text.
func ConnectionProblem(base string, err error) string {
	host := base
	if u, perr := url.Parse(base); perr == nil && u.Host != "" {
		host = u.Host
	}
	var dns *net.DNSError
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var certInvalid x509.CertificateInvalidError
	var recordHeader tls.RecordHeaderError
	var ee *model.EndpointError
	if errors.As(err, &ee) && ee.Status == 0 && ee.Cause != nil {
		err = ee.Cause
	}
	switch {
	case errors.As(err, &dns):
		return "The server name " + dns.Name + " could not be found (DNS). Check the URL, or your network connection."
	case errors.Is(err, syscall.ECONNREFUSED):
		return "Nothing answers at " + host + ". Is the server running, and on this port?"
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return "The server at " + host + " did not answer in time."
	case errors.As(err, &unknownCA), errors.As(err, &hostname), errors.As(err, &certInvalid):
		return "The server's certificate could not be verified (" + host + "): " + lastPart(err) + "."
	case errors.As(err, &recordHeader):
		return "The server at " + host + " does not speak HTTPS: try http:// instead."
	case errors.As(err, &ee) && ee.Status != 0:
		return "The server answered with an error: " + ee.Error()
	}
	return "Could not list models: " + err.Error()
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// lastPart is the innermost message of a wrapped error chain ("a: b: c" → "c").
func lastPart(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		return s[i+2:]
	}
	return s
}

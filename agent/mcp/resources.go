package mcp

import (
	"context"
	"encoding/base64"
	"fmt"
	"mime"
	"net/url"
	"path"
	"sort"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"
)

// A server's resources (resources/list, resources/templates/list,
// resources/read) as files the person attaches to a message ("Add from
// <server>"). A read resource goes to the window as an attachment
// ({name, mimeType, data}) and comes back through SendInput like any file,
// so the runtime's attachment checks (size, count, type, what the model
// accepts) apply to it unchanged. Here it is only capped on the way in.

// maxResourceParts caps the contents one read may return (a resource is
// usually one; a directory-like one may be several).
const maxResourceParts = 10

// ResourceInfo is one listed resource.
type ResourceInfo struct {
	Server      string `json:"server"`
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType,omitempty"`
	Size        int64  `json:"size,omitempty"` // as the server states it (0: not said)
}

// TemplateInfo is one resource template (RFC 6570), with the variables
// the person fills in.
type TemplateInfo struct {
	Server      string   `json:"server"`
	URITemplate string   `json:"uriTemplate"`
	Name        string   `json:"name"`
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description,omitempty"`
	MimeType    string   `json:"mimeType,omitempty"`
	Variables   []string `json:"variables"`
	Completes   bool     `json:"completes"`
}

// ResourceServer is one ready server's resources.
type ResourceServer struct {
	Server    string         `json:"server"`
	Title     string         `json:"title"`
	Resources []ResourceInfo `json:"resources"`
	Templates []TemplateInfo `json:"templates"`
}

// ResourceCatalog is what "Add from <server>" offers.
type ResourceCatalog struct {
	Servers  []ResourceServer `json:"servers"`
	Problems []OfferProblem   `json:"problems"`
}

// Resources lists the resources and templates of every ready server that
// offers resources, by server name.
func (m *Manager) Resources(ctx context.Context) ResourceCatalog {
	out := ResourceCatalog{Servers: []ResourceServer{}, Problems: []OfferProblem{}}
	var list syncList[ResourceServer]
	m.eachReady(func(s *supervisor) {
		l, err := s.resources(ctx)
		if l == nil && err == nil {
			return // no resources offered
		}
		var items []ResourceServer
		truncated := false
		if l != nil {
			items = []ResourceServer{{Server: s.name, Title: s.title(), Resources: l.resources, Templates: l.templates}}
			truncated = l.truncated
		}
		list.add(s.name, items, truncated, err, "resources")
	})
	out.Servers, out.Problems = list.result(out.Servers, out.Problems)
	sort.Slice(out.Servers, func(i, j int) bool { return out.Servers[i].Server < out.Servers[j].Server })
	return out
}

// resources returns the server's resources and templates (nil, nil: it
// offers none), from the cache when still valid.
func (s *supervisor) resources(ctx context.Context) (*resourceList, error) {
	sess, _ := s.ready()
	if sess == nil || sess.capabilities().Resources == nil {
		return nil, nil
	}
	s.offers.mu.Lock()
	s.offers.forSessionLocked(sess)
	if l := s.offers.resources; l != nil {
		s.offers.mu.Unlock()
		return l, nil
	}
	s.offers.mu.Unlock()

	ctx, cancel := context.WithTimeout(ctx, offerTimeout)
	defer cancel()
	l := &resourceList{resources: []ResourceInfo{}, templates: []TemplateInfo{}}
	t1, err := listPages(ctx, func(ctx context.Context, cursor string) (int, string, error) {
		res, err := sess.cs.ListResources(ctx, &sdk.ListResourcesParams{Cursor: cursor})
		if err != nil {
			return 0, "", err
		}
		for _, r := range res.Resources {
			if r != nil && r.URI != "" {
				l.resources = append(l.resources, ResourceInfo{Server: s.name, URI: clip(r.URI), Name: clip(orDefault(r.Name, r.URI)),
					Title: clip(r.Title), Description: clip(r.Description), MimeType: clip(r.MIMEType), Size: max(r.Size, 0)})
			}
		}
		return len(res.Resources), res.NextCursor, nil
	})
	if err != nil {
		return nil, requestError("listing the resources", s.name, err)
	}
	completes := sess.capabilities().Completions != nil
	t2, err := listPages(ctx, func(ctx context.Context, cursor string) (int, string, error) {
		res, err := sess.cs.ListResourceTemplates(ctx, &sdk.ListResourceTemplatesParams{Cursor: cursor})
		if err != nil {
			return 0, "", err
		}
		for _, t := range res.ResourceTemplates {
			if t == nil || t.URITemplate == "" {
				continue
			}
			tmpl, err := uritemplate.New(t.URITemplate)
			if err != nil {
				s.log.Note(notePrefix + fmt.Sprintf("resource template %q is not offered: %v", shorten(t.URITemplate, 200), err))
				continue
			}
			vars := tmpl.Varnames()
			if len(vars) > maxPromptArgs {
				vars = vars[:maxPromptArgs]
			}
			l.templates = append(l.templates, TemplateInfo{Server: s.name, URITemplate: clip(t.URITemplate), Name: clip(orDefault(t.Name, t.URITemplate)),
				Title: clip(t.Title), Description: clip(t.Description), MimeType: clip(t.MIMEType), Variables: append([]string{}, vars...), Completes: completes})
		}
		return len(res.ResourceTemplates), res.NextCursor, nil
	})
	if err != nil {
		// A server that lists resources but no templates (method not
		// found) still offers its resources.
		s.log.Note(notePrefix + "could not list the resource templates: " + shorten(err.Error(), 200))
	}
	if len(l.resources) > maxListItems {
		l.resources, t1 = l.resources[:maxListItems], true
	}
	if len(l.templates) > maxListItems {
		l.templates, t2 = l.templates[:maxListItems], true
	}
	l.truncated = t1 || t2
	s.offers.mu.Lock()
	if s.offers.sess == sess {
		s.offers.resources = l
	}
	s.offers.mu.Unlock()
	return l, nil
}

// ExpandTemplate fills a resource template's variables (RFC 6570) into a
// URI to read.
func ExpandTemplate(template string, vars map[string]string) (string, error) {
	t, err := uritemplate.New(template)
	if err != nil {
		return "", fmt.Errorf("the resource template %q is not valid: %w", shorten(template, 200), err)
	}
	values := uritemplate.Values{}
	for _, name := range t.Varnames() {
		if v, ok := vars[name]; ok {
			values.Set(name, uritemplate.String(v))
		}
	}
	return t.Expand(values)
}

// ResourceFile is one content of a read resource, as the composer attaches
// it.
type ResourceFile struct {
	URI      string `json:"uri"`
	Name     string `json:"name"`
	MimeType string `json:"mimeType"`
	Data     string `json:"data"` // base64
	Size     int    `json:"size"`
}

// ResourceRead is what reading a resource gives the composer.
type ResourceRead struct {
	Files []ResourceFile `json:"files"`
	Notes []string       `json:"notes"` // what was left out, and why
}

// ReadResource reads a resource of a server: each content becomes a file
// (text as UTF-8, a blob as its bytes). A content over maxBytes is left
// out with a note, as are contents past the tenth; an empty read is an
// error. name is the file name the person saw in the list (the last
// segment of the URI when empty).
func (m *Manager) ReadResource(ctx context.Context, server, uri, name string, maxBytes int) (ResourceRead, error) {
	s, sess, err := m.readySession(server)
	if err != nil {
		return ResourceRead{}, err
	}
	if sess.capabilities().Resources == nil {
		return ResourceRead{}, fmt.Errorf("%w: %s has no resources", ErrNotOffered, server)
	}
	ctx, cancel := context.WithTimeout(ctx, offerTimeout)
	defer cancel()
	res, err := sess.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		return ResourceRead{}, requestError("reading "+shorten(uri, 200), s.name, err)
	}
	out := resourceFiles(res, uri, name, maxBytes)
	if len(out.Files) == 0 && len(out.Notes) == 0 {
		return out, fmt.Errorf("reading %s: %s returned no content", shorten(uri, 200), s.name)
	}
	return out, nil
}

func resourceFiles(res *sdk.ReadResourceResult, uri, name string, maxBytes int) ResourceRead {
	out := ResourceRead{Files: []ResourceFile{}, Notes: []string{}}
	if res == nil {
		return out
	}
	for i, c := range res.Contents {
		if c == nil {
			continue
		}
		if i >= maxResourceParts {
			out.Notes = append(out.Notes, fmt.Sprintf("%d more contents were left out: at most %d are attached.", len(res.Contents)-i, maxResourceParts))
			break
		}
		data := []byte(c.Text)
		if c.Blob != nil {
			data = c.Blob
		}
		cu := orDefault(c.URI, uri)
		n := name
		if n == "" || len(res.Contents) > 1 {
			n = resourceFileName(cu, "", c.MIMEType)
		} else {
			n = resourceFileName(cu, n, c.MIMEType)
		}
		if len(data) > maxBytes {
			out.Notes = append(out.Notes, fmt.Sprintf("%s is %s: at most %s a file can be attached, so it was left out.", n, humanSize(len(data)), humanSize(maxBytes)))
			continue
		}
		if len(data) == 0 {
			out.Notes = append(out.Notes, n+" is empty, so it was left out.")
			continue
		}
		out.Files = append(out.Files, ResourceFile{URI: cu, Name: n, MimeType: orDefault(c.MIMEType, "application/octet-stream"),
			Data: base64.StdEncoding.EncodeToString(data), Size: len(data)})
	}
	return out
}

// resourceFileName is the name a resource's file gets: the listed name
// when given, else the last segment of its URI, with an extension for its
// type when it has none (the model reads "1.txt" better than "1").
func resourceFileName(uri, name, mimeType string) string {
	n := strings.TrimSpace(name)
	if n == "" {
		if u, err := url.Parse(uri); err == nil {
			p := u.Path
			if p == "" {
				p = u.Opaque
			}
			n = path.Base(p)
			if uq, err := url.PathUnescape(n); err == nil {
				n = uq
			}
		}
	}
	n = strings.NewReplacer("/", "_", "\\", "_").Replace(n)
	if n == "" || n == "." || n == "_" {
		n = "resource"
	}
	n = shorten(n, 120)
	if path.Ext(n) == "" {
		n += extFor(mimeType)
	}
	return n
}

// extFor is a file extension for a MIME type ("" when none is known).
func extFor(mimeType string) string {
	switch strings.ToLower(strings.TrimSpace(strings.SplitN(mimeType, ";", 2)[0])) {
	case "text/plain":
		return ".txt"
	case "text/markdown":
		return ".md"
	case "application/json":
		return ".json"
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "", "application/octet-stream":
		return ""
	}
	if exts, err := mime.ExtensionsByType(mimeType); err == nil && len(exts) > 0 {
		return exts[0]
	}
	return ""
}

package mcp

import (
	"context"
	"encoding/base64"
	"fmt"
	"sort"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A server's prompts (prompts/list, prompts/get) as commands of the
// composer: "/" lists them, a small form asks for their arguments, and the
// result becomes the person's message, editable before it is sent. A
// prompt's result is a stranger's text: it goes into the composer, never
// straight to the model, and it is capped (maxPromptText, attachments
// within the attachment limits).

const (
	// maxPromptText caps the text a prompt puts into the composer.
	maxPromptText = 256 << 10
	// maxPromptArgs caps the arguments of one prompt (a form of 1,000
	// fields is nobody's command).
	maxPromptArgs = 32
	// maxPromptFiles caps the files (images, embedded resources) a prompt
	// attaches; the runtime's limit per message is the same.
	maxPromptFiles = 10
	// maxPromptNotes caps the notes on what a prompt left out (a prompt of
	// a hundred thousand blocks gets one more note counting the rest).
	maxPromptNotes = 20
)

// PromptArg is one argument of a prompt.
type PromptArg struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required"`
}

// PromptInfo is one prompt of one server, as the composer lists it.
type PromptInfo struct {
	Server      string      `json:"server"`      // the configured name
	ServerTitle string      `json:"serverTitle"` // the server's own title, or its name
	Name        string      `json:"name"`
	Title       string      `json:"title,omitempty"`
	Description string      `json:"description,omitempty"`
	Arguments   []PromptArg `json:"arguments"`
	// Completes: the server offers completions (completion/complete).
	Completes bool `json:"completes"`
}

// OfferProblem is a server whose list could not be read, or was cut.
type OfferProblem struct {
	Server  string `json:"server"`
	Message string `json:"message"`
}

// PromptList is every ready server's prompts.
type PromptList struct {
	Prompts  []PromptInfo   `json:"prompts"`
	Problems []OfferProblem `json:"problems"`
}

// Prompts lists the prompts of every ready server that offers them,
// ordered by server then title. A server that fails or times out is a
// Problem; the others are listed all the same.
func (m *Manager) Prompts(ctx context.Context) PromptList {
	out := PromptList{Prompts: []PromptInfo{}, Problems: []OfferProblem{}}
	var list syncList[PromptInfo]
	m.eachReady(func(s *supervisor) {
		items, truncated, err := s.prompts(ctx)
		list.add(s.name, items, truncated, err, "prompts")
	})
	out.Prompts, out.Problems = list.result(out.Prompts, out.Problems)
	sort.SliceStable(out.Prompts, func(i, j int) bool {
		a, b := out.Prompts[i], out.Prompts[j]
		if a.Server != b.Server {
			return a.Server < b.Server
		}
		return orDefault(a.Title, a.Name) < orDefault(b.Title, b.Name)
	})
	return out
}

// prompts returns the server's prompts, from the cache when it is still
// valid for the ready session.
func (s *supervisor) prompts(ctx context.Context) ([]PromptInfo, bool, error) {
	sess, _ := s.ready()
	if sess == nil || sess.capabilities().Prompts == nil {
		return nil, false, nil
	}
	s.offers.mu.Lock()
	s.offers.forSessionLocked(sess)
	if l := s.offers.prompts; l != nil {
		s.offers.mu.Unlock()
		return l.items, l.truncated, nil
	}
	s.offers.mu.Unlock()

	ctx, cancel := context.WithTimeout(ctx, offerTimeout)
	defer cancel()
	completes := sess.capabilities().Completions != nil
	title := s.title()
	var items []PromptInfo
	truncated, err := listPages(ctx, func(ctx context.Context, cursor string) (int, string, error) {
		res, err := sess.cs.ListPrompts(ctx, &sdk.ListPromptsParams{Cursor: cursor})
		if err != nil {
			return 0, "", err
		}
		for _, p := range res.Prompts {
			if p != nil && p.Name != "" {
				items = append(items, promptInfo(s.name, title, p, completes))
			}
		}
		return len(res.Prompts), res.NextCursor, nil
	})
	if err != nil {
		return nil, false, requestError("listing the prompts", s.name, err)
	}
	if len(items) > maxListItems {
		items, truncated = items[:maxListItems], true
	}
	s.offers.mu.Lock()
	if s.offers.sess == sess {
		s.offers.prompts = &promptList{items: items, truncated: truncated}
	}
	s.offers.mu.Unlock()
	return items, truncated, nil
}

func promptInfo(server, serverTitle string, p *sdk.Prompt, completes bool) PromptInfo {
	pi := PromptInfo{Server: server, ServerTitle: serverTitle, Name: clip(p.Name), Title: clip(p.Title),
		Description: clip(p.Description), Arguments: []PromptArg{}, Completes: completes}
	for _, a := range p.Arguments {
		if a == nil || a.Name == "" {
			continue
		}
		if len(pi.Arguments) == maxPromptArgs {
			break
		}
		pi.Arguments = append(pi.Arguments, PromptArg{Name: clip(a.Name), Title: clip(a.Title), Description: clip(a.Description), Required: a.Required})
	}
	return pi
}

// PromptFile is a file a prompt's result carries (an image, an embedded
// resource): the composer attaches it to the message.
type PromptFile struct {
	Name     string `json:"name"`
	MimeType string `json:"mimeType"`
	Data     string `json:"data"` // base64
	Size     int    `json:"size"`
}

// PromptText is a prompt's result as the composer inserts it.
type PromptText struct {
	Text  string       `json:"text"`
	Files []PromptFile `json:"files"`
	// Notes say what was left out or cut ("the prompt's text was cut at
	// 256 KB"); the composer shows them.
	Notes []string `json:"notes"`
}

// GetPrompt runs prompts/get with the person's arguments and turns the
// messages into one message: texts joined by blank lines (an assistant
// message marked as such), embedded text resources as fenced blocks,
// images and other embedded files as attachments (at most maxFileBytes
// each, maxPromptFiles in all). The text is capped at maxPromptText.
func (m *Manager) GetPrompt(ctx context.Context, server, name string, args map[string]string, maxFileBytes int) (PromptText, error) {
	s, sess, err := m.readySession(server)
	if err != nil {
		return PromptText{}, err
	}
	if sess.capabilities().Prompts == nil {
		return PromptText{}, fmt.Errorf("%w: %s has no prompts", ErrNotOffered, server)
	}
	ctx, cancel := context.WithTimeout(ctx, offerTimeout)
	defer cancel()
	res, err := sess.cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return PromptText{}, requestError(fmt.Sprintf("getting the prompt %q", name), s.name, err)
	}
	return promptText(res, maxFileBytes), nil
}

// promptText converts a prompt's messages; see GetPrompt.
func promptText(res *sdk.GetPromptResult, maxFileBytes int) PromptText {
	out := PromptText{Files: []PromptFile{}, Notes: []string{}}
	var parts []string
	dropped := 0
	note := func(format string, a ...any) {
		if len(out.Notes) >= maxPromptNotes {
			dropped++
			return
		}
		out.Notes = append(out.Notes, fmt.Sprintf(format, a...))
	}
	addFile := func(f PromptFile, what string) {
		switch {
		case f.Size > maxFileBytes:
			note("%s (%s) was left out: over the %s a file can be.", what, humanSize(f.Size), humanSize(maxFileBytes))
		case len(out.Files) >= maxPromptFiles:
			note("%s was left out: at most %d files are attached.", what, maxPromptFiles)
		default:
			out.Files = append(out.Files, f)
		}
	}
	if res == nil {
		return out
	}
	for i, msg := range res.Messages {
		if msg == nil {
			continue
		}
		prefix := ""
		if msg.Role == "assistant" {
			prefix = "Assistant: "
		}
		switch c := msg.Content.(type) {
		case *sdk.TextContent:
			parts = append(parts, prefix+c.Text)
		case *sdk.ImageContent:
			name := fmt.Sprintf("prompt-image-%d%s", i+1, extFor(c.MIMEType))
			addFile(PromptFile{Name: name, MimeType: c.MIMEType, Data: base64.StdEncoding.EncodeToString(c.Data), Size: len(c.Data)}, "An image")
		case *sdk.EmbeddedResource:
			r := c.Resource
			if r == nil {
				continue
			}
			data := []byte(r.Text)
			if r.Blob != nil {
				data = r.Blob
			}
			addFile(PromptFile{Name: resourceFileName(r.URI, "", r.MIMEType), MimeType: orDefault(r.MIMEType, "text/plain"),
				Data: base64.StdEncoding.EncodeToString(data), Size: len(data)}, "The resource "+shorten(r.URI, 200))
		case *sdk.ResourceLink:
			parts = append(parts, prefix+fmt.Sprintf("%s <%s>", orDefault(c.Title, c.Name), c.URI))
		case *sdk.AudioContent:
			note("An audio clip (%s) was left out: audio cannot be sent.", humanSize(len(c.Data)))
		case nil:
		default:
			note("A %T block was left out.", c)
		}
	}
	if dropped > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("%d more blocks were left out.", dropped))
	}
	text := strings.Join(parts, "\n\n")
	if len(text) > maxPromptText {
		cut := runeCut(text, maxPromptText)
		out.Notes = append(out.Notes, fmt.Sprintf("The prompt's text was cut at %s (it was %s).", humanSize(maxPromptText), humanSize(len(text))))
		text = text[:cut]
	}
	out.Text = text
	return out
}

// syncList gathers the lists of several servers listed at once.
type syncList[T any] struct {
	mu       sync.Mutex
	items    []T
	problems []OfferProblem
}

func (l *syncList[T]) add(server string, items []T, truncated bool, err error, what string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case err != nil:
		l.problems = append(l.problems, OfferProblem{Server: server, Message: err.Error()})
	case truncated:
		l.problems = append(l.problems, OfferProblem{Server: server, Message: fmt.Sprintf("only the first %d %s are shown", maxListItems, what)})
	}
	l.items = append(l.items, items...)
}

func (l *syncList[T]) result(items []T, problems []OfferProblem) ([]T, []OfferProblem) {
	l.mu.Lock()
	defer l.mu.Unlock()
	items = append(items, l.items...)
	problems = append(problems, l.problems...)
	sort.Slice(problems, func(i, j int) bool { return problems[i].Server < problems[j].Server })
	return items, problems
}

// listPages runs a paged list: fetch returns how many items a page had and
// the next cursor. It stops after maxListPages pages, at maxListItems
// items, or at a cursor seen before (a server that loops); truncated says
// it stopped early.
func listPages(ctx context.Context, fetch func(ctx context.Context, cursor string) (n int, next string, err error)) (truncated bool, err error) {
	cursor, total := "", 0
	seen := map[string]bool{}
	for page := 0; ; page++ {
		if page == maxListPages {
			return true, nil
		}
		n, next, err := fetch(ctx, cursor)
		if err != nil {
			return false, err
		}
		total += n
		if next == "" {
			return false, nil
		}
		if total >= maxListItems || seen[next] {
			return true, nil
		}
		seen[next] = true
		cursor = next
	}
}

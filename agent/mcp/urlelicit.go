package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/juncture-app/juncture/agent/tools"
)

// URL-mode elicitation's error path: a server answers a call with
// -32042 (URLElicitationRequiredError) and the pages the person must
// visit first (a sign-in, say). Each page is shown on the same card as a
// URL-mode question (its Open button asks the open_url confirmation);
// once the person says they are done with every one, the call is sent
// again, once. A second -32042 is the call's result, not a loop.

// maxURLElicitations caps the pages one error may ask for.
const maxURLElicitations = 3

// errURLElicitationDeclined marks a call whose prerequisite the person
// declined or dismissed.
var errURLElicitationDeclined = errors.New("the person did not complete the page the server asked for")

// callTool sends a tools/call, handling the URL-elicitation error path.
func (s *supervisor) callTool(ctx context.Context, sess *session, params *sdk.CallToolParams) (*sdk.CallToolResult, error) {
	res, err := sess.cs.CallTool(ctx, params)
	pages, ok := urlElicitations(err)
	if !ok {
		return res, err
	}
	if len(pages) == 0 {
		return nil, err
	}
	for _, p := range pages {
		reply, aerr := tools.Ask(ctx, tools.Prompt{Kind: tools.PromptURL, Source: s.title(), Message: p.Message, URL: p.URL})
		if aerr != nil || reply.Action != tools.ReplyAccept {
			s.log.Note(notePrefix + "a call needed a page opened first (-32042); the person did not complete it")
			return nil, errURLElicitationDeclined
		}
	}
	s.log.Note(notePrefix + "retrying a call after the person completed the page the server asked for (-32042)")
	return sess.cs.CallTool(ctx, params)
}

// urlElicitations reads the pages of a -32042 error: ok reports the
// code; pages are the valid URL-mode ones (http and https only, at most
// maxURLElicitations).
func urlElicitations(err error) (pages []*sdk.ElicitParams, ok bool) {
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) || rpc.Code != sdk.CodeURLElicitationRequired {
		return nil, false
	}
	var data struct {
		Elicitations []*sdk.ElicitParams `json:"elicitations"`
	}
	if len(rpc.Data) == 0 || json.Unmarshal(rpc.Data, &data) != nil {
		return nil, true
	}
	for _, p := range data.Elicitations {
		if p == nil || (p.Mode != "" && p.Mode != "url") {
			continue
		}
		u, perr := url.Parse(p.URL)
		if perr != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			continue
		}
		if len(pages) == maxURLElicitations {
			break
		}
		pages = append(pages, p)
	}
	return pages, true
}

// urlElicitationResult is what the model reads when the call could not be
// retried.
func urlElicitationResult(server string) tools.Result {
	return tools.Result{IsError: true, Content: fmt.Sprintf("The MCP server %q needs the person to open a page first (URL elicitation); they did not complete it, so the call was not retried.", server)}
}

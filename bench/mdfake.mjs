#!/usr/bin/env node
// mdfake.mjs — an OpenAI-compatible Chat Completions server that streams
// Markdown with code blocks (headings, paragraphs with inline code and
// emphasis, lists, fenced Go/TypeScript/shell blocks, a table), one short
// token per chunk, for the desktop streaming bench (scripts/bench-desktop.sh):
// the same text goes to Juncture and to the floor page (bench/floorstream).
//
//   POST …/chat/completions  stream:true → `data: {chat.completion.chunk}` … `data: [DONE]`
//   knobs as path segments (like the TanStack anchor's fake.mjs): /n=5000/d=1/
//     n tokens, d ms between tokens (absolute schedule: the average rate is exactly 1000/d).
//   PORT=0 node bench/mdfake.mjs prints "LISTENING <port>".
//   node bench/mdfake.mjs --expect N prints the length of the text of N tokens.
import http from 'node:http';

// One section of Markdown; the stream repeats it (numbered) as long as needed.
const section = (k) => `## Part ${k}: streaming a parser

The \`Lexer\` reads the *input* once and hands **tokens** to the parser; a token
keeps its \`offset\` so errors can point at the source. See [the notes](https://example.com/notes/${k}).

- one pass over the bytes, no backtracking
- tokens are values, not pointers
- errors carry a position

\`\`\`go
func (l *Lexer) Next() (Token, error) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == ' ' || c == '\\t':
			l.pos++
		case isDigit(c):
			return l.number()
		default:
			return Token{}, fmt.Errorf("at %d: unexpected %q", l.pos, c)
		}
	}
	return Token{Kind: EOF}, nil
}
\`\`\`

1. Build the table of keywords.
2. Run the lexer over the file.
3. Compare the tokens with the golden list.

| step | time | note |
| --- | --- | --- |
| lex | 12 ms | one pass |
| parse | 30 ms | recursive descent |

\`\`\`ts
export function render(tokens: Token[]): string {
  return tokens.map((t) => \`<\${t.kind}>\${t.text}\`).join('\\n');
}
\`\`\`

> A parser that streams can show its first answer before the input ends.

`;

// The tokens: runs of letters/digits with their leading space, or single
// punctuation/newline characters (about what a model's tokenizer gives).
const TOKENS = [];
for (let k = 1; TOKENS.length < 200000; k++) {
  for (const m of section(k).matchAll(/ ?[A-Za-z0-9]+|\n|[^A-Za-z0-9\n]/g)) TOKENS.push(m[0]);
}
export const tokenText = (i) => TOKENS[i];
export function expectedText(n) {
  return TOKENS.slice(0, n).join('');
}

function chunk(delta, finish) {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-mdfake', object: 'chat.completion.chunk', created: 1700000000, model: 'fake-model',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  })}\n\n`;
}

function handle(req, res) {
  const url = new URL(req.url, 'http://x');
  if (req.method !== 'POST' || !url.pathname.endsWith('/chat/completions')) {
    res.statusCode = 404;
    res.end('{"error":{"message":"not found"}}');
    return;
  }
  const segs = {};
  for (const s of url.pathname.split('/')) {
    const m = /^(n|d)=(\d+)$/.exec(s);
    if (m) segs[m[1]] = Number(m[2]);
  }
  const n = Math.min(segs.n ?? 1000, TOKENS.length);
  const d = segs.d ?? 0;
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    let stream = false;
    try { stream = JSON.parse(body).stream === true; } catch { /* not JSON */ }
    if (!stream) {
      // the thread title call: a short answer
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ id: 'chatcmpl-mdfake', object: 'chat.completion', created: 1700000000, model: 'fake-model',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Bench' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 8, completion_tokens: 1, total_tokens: 9 } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    res.write(chunk({ role: 'assistant', content: '' }, null));
    let i = 0;
    let closed = false;
    res.on('close', () => (closed = true));
    const t0 = performance.now();
    const tick = () => {
      if (closed) return;
      // absolute schedule: every token due by now is written in one go
      const due = d > 0 ? Math.min(n, Math.floor((performance.now() - t0) / d) + 1) : n;
      let s = '';
      for (; i < due; i++) s += chunk({ content: TOKENS[i] }, null);
      if (s) res.write(s);
      if (i >= n) {
        res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
        return;
      }
      setTimeout(tick, Math.max(0, t0 + i * d - performance.now()));
    };
    tick();
  });
}

if (process.argv[2] === '--expect') {
  console.log(expectedText(Number(process.argv[3])).length);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const srv = http.createServer(handle);
  srv.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(`LISTENING ${srv.address().port}`));
}

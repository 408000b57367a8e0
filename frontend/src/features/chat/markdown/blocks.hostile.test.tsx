import { describe, expect, it } from 'vitest';
import { streamAsWhole } from './testing';

// Hostile text inside a streaming open fence (shown without the parser:
// openFenceBlock) renders as the whole render does, as inert text.
const HOSTILE: Record<string, string> = {
  'NUL characters': '```go\na\u0000b\n\u0000\n',
  'markup in the code': '```html\n<script>alert(1)</script><img src=x onerror=alert(1)>\n&lt;b&gt; &amp;\n',
  'language with dots and signs': '```c++.#_-\nx\n',
  'tabs and form feeds': '```\n\tx\f\u000b\n\u2028y\n',
  'lone surrogates and BOM': '```\n\ud800x\ufeff\n',
  'backslash and entities in the name': '```a\\b\nx\n',
};

describe('open fence streamed with hostile text', () => {
  for (const [name, text] of Object.entries(HOSTILE)) {
    it(`renders ${name} as the whole render`, () => {
      const view = streamAsWhole(text);
      expect(view.container.querySelector('script,img')).toBeNull();
      view.unmount();
    });
  }
});

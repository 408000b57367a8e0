// The highlight.js grammars Juncture highlights (lowlight's "common" set,
// the same 37 that rehype-highlight registered eagerly before), each loaded
// on demand as its own chunk. `aliases` are the names a fence may use
// (```js); `uses` are the grammars a grammar embeds (subLanguage), loaded
// with it so the output is the same as with every grammar registered.
// highlightLanguages.test.ts checks this table against lowlight's.
import type { LanguageFn } from 'highlight.js';

export interface LanguageEntry {
  load: () => Promise<{ default: LanguageFn }>;
  aliases: readonly string[];
  uses?: readonly string[];
}

export const LANGUAGES: Record<string, LanguageEntry> = {
  "arduino": { load: () => import('highlight.js/lib/languages/arduino'), aliases: ["ino"] },
  "bash": { load: () => import('highlight.js/lib/languages/bash'), aliases: ["sh","zsh"] },
  "c": { load: () => import('highlight.js/lib/languages/c'), aliases: ["h"] },
  "cpp": { load: () => import('highlight.js/lib/languages/cpp'), aliases: ["cc","c++","h++","hpp","hh","hxx","cxx"] },
  "csharp": { load: () => import('highlight.js/lib/languages/csharp'), aliases: ["cs","c#"] },
  "css": { load: () => import('highlight.js/lib/languages/css'), aliases: [] },
  "diff": { load: () => import('highlight.js/lib/languages/diff'), aliases: ["patch"] },
  "go": { load: () => import('highlight.js/lib/languages/go'), aliases: ["golang"] },
  "graphql": { load: () => import('highlight.js/lib/languages/graphql'), aliases: ["gql"] },
  "ini": { load: () => import('highlight.js/lib/languages/ini'), aliases: ["toml"] },
  "java": { load: () => import('highlight.js/lib/languages/java'), aliases: ["jsp"] },
  "javascript": { load: () => import('highlight.js/lib/languages/javascript'), aliases: ["js","jsx","mjs","cjs"], uses: ["css","graphql","xml"] },
  "json": { load: () => import('highlight.js/lib/languages/json'), aliases: ["jsonc","json5"] },
  "kotlin": { load: () => import('highlight.js/lib/languages/kotlin'), aliases: ["kt","kts"] },
  "less": { load: () => import('highlight.js/lib/languages/less'), aliases: [] },
  "lua": { load: () => import('highlight.js/lib/languages/lua'), aliases: ["pluto"] },
  "makefile": { load: () => import('highlight.js/lib/languages/makefile'), aliases: ["mk","mak","make"] },
  "markdown": { load: () => import('highlight.js/lib/languages/markdown'), aliases: ["md","mkdown","mkd"], uses: ["xml"] },
  "objectivec": { load: () => import('highlight.js/lib/languages/objectivec'), aliases: ["mm","objc","obj-c","obj-c++","objective-c++"] },
  "perl": { load: () => import('highlight.js/lib/languages/perl'), aliases: ["pl","pm"] },
  "php": { load: () => import('highlight.js/lib/languages/php'), aliases: [] },
  "php-template": { load: () => import('highlight.js/lib/languages/php-template'), aliases: [], uses: ["php","xml"] },
  "plaintext": { load: () => import('highlight.js/lib/languages/plaintext'), aliases: ["text","txt"] },
  "python": { load: () => import('highlight.js/lib/languages/python'), aliases: ["py","gyp","ipython"] },
  "python-repl": { load: () => import('highlight.js/lib/languages/python-repl'), aliases: ["pycon"], uses: ["python"] },
  "r": { load: () => import('highlight.js/lib/languages/r'), aliases: [] },
  "ruby": { load: () => import('highlight.js/lib/languages/ruby'), aliases: ["rb","gemspec","podspec","thor","irb"] },
  "rust": { load: () => import('highlight.js/lib/languages/rust'), aliases: ["rs"] },
  "scss": { load: () => import('highlight.js/lib/languages/scss'), aliases: [] },
  "shell": { load: () => import('highlight.js/lib/languages/shell'), aliases: ["console","shellsession"], uses: ["bash"] },
  "sql": { load: () => import('highlight.js/lib/languages/sql'), aliases: [] },
  "swift": { load: () => import('highlight.js/lib/languages/swift'), aliases: [] },
  "typescript": { load: () => import('highlight.js/lib/languages/typescript'), aliases: ["ts","tsx","mts","cts"], uses: ["css","graphql","xml"] },
  "vbnet": { load: () => import('highlight.js/lib/languages/vbnet'), aliases: ["vb"] },
  "wasm": { load: () => import('highlight.js/lib/languages/wasm'), aliases: [] },
  "xml": { load: () => import('highlight.js/lib/languages/xml'), aliases: ["html","xhtml","rss","atom","xjb","xsd","xsl","plist","wsf","svg"], uses: ["css","javascript"] },
  "yaml": { load: () => import('highlight.js/lib/languages/yaml'), aliases: ["yml"], uses: ["ruby"] },
};

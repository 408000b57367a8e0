// highlight.js ships no declarations for its per-language entry points
// (imported lazily by src/lib/highlightLanguages.ts).
declare module 'highlight.js/lib/languages/*' {
  const language: import('highlight.js').LanguageFn;
  export default language;
}

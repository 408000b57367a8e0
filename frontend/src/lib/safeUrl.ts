// URL policy for anything the model wrote: only http(s) and mailto links
// survive, plus in-page anchors (GFM footnotes). javascript:, data:,
// vbscript:, file: and relative paths (which would navigate the app window
// itself) are dropped. Control characters and whitespace that browsers
// ignore inside a scheme ("java\tscript:") are removed before the check.

const ALLOWED = new Set(['http', 'https', 'mailto']);

export function safeUrl(url: string): string {
  const v = url.trim();
  if (v === '') return '';
  if (v.startsWith('#')) return v;
  const compact = v.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(compact);
  if (!m) return '';
  return ALLOWED.has(m[1]!.toLowerCase()) ? v : '';
}

import { isObject, isString, tryParseJson } from '../transport/json';
import { INTERRUPT_MARKER } from '../state/types';

/** Content without the trailing interrupt marker Go appends for the model. */
export function stripMarker(content: string): string {
  const i = content.lastIndexOf(INTERRUPT_MARKER);
  return i >= 0 && content.slice(i + INTERRUPT_MARKER.length).trim() === '' ? content.slice(0, i).trimEnd() : content;
}

/** Pretty JSON when it parses, the raw text otherwise (e.g. while streaming). */
export function prettyJson(text: string): string {
  if (!text.trim()) return '';
  const p = tryParseJson(text);
  return p.ok ? JSON.stringify(p.value, null, 2) : text;
}

/** A one-line hint of what a tool call is about (path, command, url…). */
export function argSummary(args: string): string {
  const p = tryParseJson(args);
  if (!p.ok || !isObject(p.value)) return '';
  const o = p.value;
  for (const k of ['command', 'path', 'url', 'query', 'file', 'folder', 'pattern', 'text']) {
    const v = o[k];
    if (isString(v) && v) return v.length > 90 ? `${v.slice(0, 90)}…` : v;
  }
  return '';
}

export function formatTime(ms: number): string {
  if (!ms) return '';
  const d = new Date(ms);
  const now = new Date();
  const sameDay = d.toDateString() === now.toDateString();
  return sameDay
    ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

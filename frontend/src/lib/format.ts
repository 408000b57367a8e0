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
  if (sameDay) return d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  // Another year says which (an imported chat from 2023 is not "May 1").
  if (d.getFullYear() !== now.getFullYear()) return d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
  return d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** "1 model available", "3 models available". */
export function modelsAvailable(n: number): string {
  return `${n} model${n === 1 ? '' : 's'} available`;
}

/** What a failed answer says about its endpoint (the message's stored error text, from Go). */
export interface EndpointProblem {
  kind: 'unreachable' | 'answered' | 'cut' | 'not-configured' | 'other';
  /** One sentence saying what happened. */
  title: string;
  /** The endpoint's own message, or Go's technical text. */
  detail: string;
  /** What to do about it, when there is something to say. */
  hint: string;
  /** The HTTP status the endpoint answered with (kind "answered"). */
  status?: number;
}

const UNREACHABLE =
  /cannot reach the endpoint|connection refused|no such host|network is unreachable|no route to host|i\/o timeout|connection reset|dial tcp|tls: |x509: |server misbehaving/i;

function hostIn(text: string): string {
  const m = /(https?:\/\/[^\s"'/]+)/.exec(text);
  if (!m) return '';
  try {
    return new URL(m[1]!).host;
  } catch {
    return '';
  }
}

function statusHint(status: number): string {
  if (status === 401 || status === 403) return 'Check the API key in Settings.';
  if (status === 404) return 'Check the base URL and the model name in Settings.';
  if (status === 429) return 'The endpoint is rate-limiting: wait a moment, then regenerate.';
  if (status >= 500) return 'The endpoint had a problem of its own: try again in a moment.';
  return 'Check the endpoint and model in Settings.';
}

/**
 * Reads Go's error text for a failed answer (agent/model EndpointError:
 * "cannot reach the endpoint (connection refused): …", "endpoint answered
 * 401: …", "the endpoint closed the stream …") and says what happened.
 */
export function describeEndpointError(error: string | undefined): EndpointProblem {
  const text = (error ?? '').trim();
  const answered = /^endpoint answered (\d{3}):\s*([\s\S]*)$/.exec(text);
  if (answered) {
    const status = Number(answered[1]);
    const detail = answered[2]!.trim() || `HTTP ${status}`;
    return { kind: 'answered', status, title: `The model endpoint answered with an error (HTTP ${status}).`, detail, hint: statusHint(status) };
  }
  if (UNREACHABLE.test(text)) {
    const host = hostIn(text);
    return {
      kind: 'unreachable',
      title: host ? `Juncture could not reach the model endpoint at ${host}.` : 'Juncture could not reach the model endpoint.',
      detail: text,
      hint: 'Is the server running, and is the base URL in Settings right?',
    };
  }
  if (/closed the stream before the answer was complete/i.test(text)) {
    return { kind: 'cut', title: 'The model endpoint stopped in the middle of the answer.', detail: text, hint: 'Regenerate to try again.' };
  }
  if (/not configured|no model (endpoint )?is (configured|chosen)/i.test(text)) {
    return { kind: 'not-configured', title: 'No model is set up yet.', detail: text, hint: 'Choose an endpoint and a model in Settings.' };
  }
  if (/^the model endpoint returned an error\.?$/i.test(text)) {
    return { kind: 'other', title: 'The model endpoint returned an error.', detail: '', hint: 'It gave no details.' };
  }
  return {
    kind: 'other',
    title: 'The answer failed.',
    detail: text || 'No details were given.',
    hint: '',
  };
}

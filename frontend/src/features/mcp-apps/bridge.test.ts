import { describe, expect, it, vi } from 'vitest';
import {
  AppHost,
  ERR_INVALID_PARAMS,
  ERR_METHOD_NOT_FOUND,
  ERR_REFUSED,
  FLOOD_LIMIT,
  MAX_INLINE_HEIGHT,
  MIN_HEIGHT,
  RATE,
  acceptMessage,
  clampHeight,
  linkOf,
  messageText,
  readMessage,
  type HostDeps,
} from './bridge';

function host(over: Partial<HostDeps> = {}) {
  const posted: Record<string, unknown>[] = [];
  let t = 0;
  const flush: (() => void)[] = [];
  const d: HostDeps = {
    post: (m) => posted.push(m as Record<string, unknown>),
    callTool: vi.fn(async () => ({ content: [{ type: 'text', text: 'ok' }] })),
    confirmLink: vi.fn(async () => true),
    confirmMessage: vi.fn(async () => true),
    resize: vi.fn(),
    context: () => ({ theme: 'dark', displayMode: 'inline', availableDisplayModes: ['inline'], containerDimensions: { maxHeight: MAX_INLINE_HEIGHT }, locale: 'en', platform: 'web' }),
    onFlood: vi.fn(),
    toolInput: { city: 'Paris' },
    toolResult: { content: [{ type: 'text', text: 'sunny' }] },
    now: () => t,
    schedule: (f) => flush.push(f),
    ...over,
  };
  const h = new AppHost(d);
  return {
    h,
    d,
    posted,
    tick: (ms: number) => (t += ms),
    frame: () => flush.splice(0).forEach((f) => f()),
    settle: () => new Promise((r) => setTimeout(r, 0)),
  };
}

const req = (id: number | string, method: string, params?: unknown) => ({ jsonrpc: '2.0', id, method, params });
const note = (method: string, params?: unknown) => ({ jsonrpc: '2.0', method, params });

describe('acceptMessage: only the frame’s own window', () => {
  it('refuses every other source', () => {
    const frame = {} as Window;
    expect(acceptMessage({ source: frame }, frame)).toBe(true);
    expect(acceptMessage({ source: window }, frame)).toBe(false);
    expect(acceptMessage({ source: {} as Window }, frame)).toBe(false);
    expect(acceptMessage({ source: null }, frame)).toBe(false);
    expect(acceptMessage({ source: frame }, null)).toBe(false);
    expect(acceptMessage({ source: null }, undefined)).toBe(false);
  });
});

describe('readMessage: hostile shapes', () => {
  it.each([
    ['a string', 'not json-rpc'],
    ['null', null],
    ['an array', [1]],
    ['another version', { jsonrpc: '1.0', id: 1, method: 'ping' }],
    ['no method nor id', { jsonrpc: '2.0' }],
    ['a long method', { jsonrpc: '2.0', id: 1, method: 'x'.repeat(65) }],
    ['a method that is not a string', { jsonrpc: '2.0', id: 1, method: 7 }],
    ['an object id', { jsonrpc: '2.0', id: {}, method: 'ping' }],
    ['a NaN id', { jsonrpc: '2.0', id: NaN, method: 'ping' }],
    ['a long string id', { jsonrpc: '2.0', id: 'x'.repeat(65), method: 'ping' }],
    ['array params', { jsonrpc: '2.0', id: 1, method: 'ping', params: [] }],
    ['a huge message', { jsonrpc: '2.0', id: 1, method: 'ping', params: { x: 'y'.repeat(300 * 1024) } }],
  ])('%s is ignored', (_, data) => {
    expect(readMessage(data)).toBeNull();
  });

  it('reads a request and a notification', () => {
    expect(readMessage(req(1, 'ping'))).toMatchObject({ id: 1, method: 'ping', isResponse: false });
    expect(readMessage(note('ui/notifications/initialized'))).toMatchObject({ method: 'ui/notifications/initialized' });
  });
});

describe('AppHost', () => {
  it('answers ui/initialize with the theme, then sends the input and the result', () => {
    const { h, posted } = host();
    h.handle(req(1, 'ui/initialize', { protocolVersion: '2026-01-26' }));
    expect(posted[0]).toMatchObject({ id: 1, result: { protocolVersion: '2026-01-26', hostContext: { theme: 'dark' } } });
    h.handle(note('ui/notifications/initialized'));
    expect(posted[1]).toMatchObject({ method: 'ui/notifications/tool-input', params: { arguments: { city: 'Paris' } } });
    expect(posted[2]).toMatchObject({ method: 'ui/notifications/tool-result', params: { content: [{ text: 'sunny' }] } });
    h.handle(note('ui/notifications/initialized'));
    expect(posted).toHaveLength(3);
  });

  it('clamps sizes and applies the last one once a frame', () => {
    const { h, d, frame } = host();
    for (const height of [1e9, -5, 300, Infinity, 'x', 250]) h.handle(note('ui/notifications/size-changed', { width: 1e9, height }));
    frame();
    expect(d.resize).toHaveBeenCalledTimes(1);
    expect(d.resize).toHaveBeenCalledWith(250);
    h.handle(note('ui/notifications/size-changed', { height: 1e9 }));
    frame();
    expect(d.resize).toHaveBeenLastCalledWith(MAX_INLINE_HEIGHT);
    expect(clampHeight(-1, 500)).toBe(MIN_HEIGHT);
  });

  it('drops a flood and stops a view that keeps flooding', () => {
    const { h, d, posted } = host();
    for (let i = 0; i < RATE + FLOOD_LIMIT + 100; i++) h.handle(req(i, 'ping'));
    expect(posted.length).toBe(RATE);
    expect(d.onFlood).toHaveBeenCalledTimes(1);
    h.handle(req('late', 'ping'));
    expect(posted.length).toBe(RATE);
  });

  it('refills the budget over time', () => {
    const { h, posted, tick } = host();
    for (let i = 0; i < RATE + 10; i++) h.handle(req(i, 'ping'));
    expect(posted.length).toBe(RATE);
    tick(1000);
    h.handle(req('again', 'ping'));
    expect(posted.at(-1)).toMatchObject({ id: 'again', result: {} });
  });

  it('forwards one tools/call at a time and refuses bad ones', async () => {
    let release: (v: { content: { type: string; text: string }[] }) => void = () => {};
    const callTool = vi.fn(() => new Promise<{ content: { type: string; text: string }[] }>((r) => (release = r)));
    const { h, posted, settle } = host({ callTool });
    h.handle(req(1, 'tools/call', { name: 'stamp', arguments: { note: 'x' } }));
    h.handle(req(2, 'tools/call', { name: 'stamp', arguments: {} }));
    h.handle(req(3, 'tools/call', { name: 'stamp', arguments: [1] }));
    h.handle(req(4, 'tools/call', { arguments: {} }));
    await settle();
    expect(callTool).toHaveBeenCalledTimes(1);
    expect(callTool).toHaveBeenCalledWith('stamp', { note: 'x' });
    expect(posted.find((m) => m.id === 2)).toMatchObject({ error: { code: ERR_REFUSED } });
    expect(posted.find((m) => m.id === 3)).toMatchObject({ error: { code: ERR_INVALID_PARAMS } });
    expect(posted.find((m) => m.id === 4)).toMatchObject({ error: { code: ERR_INVALID_PARAMS } });
    release({ content: [{ type: 'text', text: 'stamped' }] });
    await settle();
    expect(posted.find((m) => m.id === 1)).toMatchObject({ result: { content: [{ text: 'stamped' }] } });
  });

  it('gives a refused call its reason', async () => {
    const { h, posted, settle } = host({ callTool: vi.fn(async () => Promise.reject(new Error('You denied it.'))) });
    h.handle(req(1, 'tools/call', { name: 'stamp' }));
    await settle();
    expect(posted[0]).toMatchObject({ id: 1, error: { code: ERR_REFUSED, message: 'You denied it.' } });
  });

  it('asks the person before a link or a message, one question at a time', async () => {
    let answer: (ok: boolean) => void = () => {};
    const confirmLink = vi.fn(() => new Promise<boolean>((r) => (answer = r)));
    const { h, d, posted, settle } = host({ confirmLink });
    h.handle(req(1, 'ui/open-link', { url: 'https://example.com/docs' }));
    h.handle(req(2, 'ui/open-link', { url: 'https://example.com/other' }));
    h.handle(req(3, 'ui/message', { role: 'user', content: [{ type: 'text', text: 'hi' }] }));
    h.handle(req(4, 'ui/open-link', { url: 'javascript:alert(1)' }));
    await settle();
    expect(confirmLink).toHaveBeenCalledTimes(1);
    expect(d.confirmMessage).not.toHaveBeenCalled();
    expect(posted.find((m) => m.id === 2)).toMatchObject({ error: { code: ERR_REFUSED } });
    expect(posted.find((m) => m.id === 3)).toMatchObject({ error: { code: ERR_REFUSED } });
    expect(posted.find((m) => m.id === 4)).toMatchObject({ error: { code: ERR_INVALID_PARAMS } });
    answer(false);
    await settle();
    expect(posted.find((m) => m.id === 1)).toMatchObject({ result: { isError: true } });
  });

  it('refuses what it does not offer, and answers nothing once stopped', () => {
    const { h, posted } = host();
    h.handle(req(1, 'resources/read', { uri: 'file:///etc/passwd' }));
    expect(posted[0]).toMatchObject({ id: 1, error: { code: ERR_METHOD_NOT_FOUND } });
    h.stop();
    h.handle(req(2, 'ping'));
    expect(posted).toHaveLength(1);
  });
});

describe('link and message checks', () => {
  it.each(['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'juncture://x', 'not a url', 5, 'https://a.com/' + 'x'.repeat(3000)])('%s is not a link', (u) => {
    expect(linkOf(u)).toBeNull();
  });
  it('keeps http(s)', () => {
    expect(linkOf('https://example.com/a?b')).toBe('https://example.com/a?b');
  });
  it('reads text from the user only', () => {
    expect(messageText({ role: 'user', content: [{ type: 'text', text: 'hi' }] })).toBe('hi');
    expect(messageText({ role: 'assistant', content: [{ type: 'text', text: 'hi' }] })).toBeNull();
    expect(messageText({ role: 'user', content: [{ type: 'image', data: 'x' }] })).toBeNull();
    expect(messageText({ role: 'user', content: [{ type: 'text', text: 'x'.repeat(5000) }] })).toBeNull();
    expect(messageText({ role: 'user', content: [{ type: 'text', text: '   ' }] })).toBeNull();
  });
});

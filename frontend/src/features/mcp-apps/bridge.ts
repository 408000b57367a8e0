// The host side of the MCP Apps protocol (ext-apps, 2026-01-26): JSON-RPC
// 2.0 over postMessage between the window and one view's frame. Written
// against the spec rather than with @modelcontextprotocol/ext-apps'
// AppBridge, which pulls the MCP SDK and zod into the window's bundle.
//
// Everything a view sends is untrusted. The window hands this class only
// messages whose source is the view's own frame (acceptMessage); here every
// message is shape-checked and budgeted before it does anything:
//   - at most RATE messages a second (a token bucket); past that they are
//     dropped, and a view that keeps flooding is stopped (onFlood);
//   - sizes are clamped (MIN_HEIGHT..maxHeight) and applied once a frame;
//   - one tools/call at a time, and one question to the person at a time
//     (ui/open-link, ui/message): the rest are refused, never queued;
//   - a tool call goes to the app (CallToolFromView: the approvals and
//     rules of the model's calls); a link or a message waits for the
//     person's click.

export const PROTOCOL_VERSION = '2026-01-26';
export const MIN_HEIGHT = 48;
export const MAX_INLINE_HEIGHT = 720;
/** Messages a view may send per second (burst), and how many drops stop it. */
export const RATE = 40;
export const FLOOD_LIMIT = 400;
/** The largest message (its JSON) a view may send. */
export const MAX_MESSAGE_CHARS = 256 * 1024;
export const MAX_METHOD_CHARS = 64;
export const MAX_LINK_CHARS = 2048;
export const MAX_VIEW_MESSAGE_CHARS = 4000;

export type Theme = 'light' | 'dark';

export interface ContentBlock {
  type: string;
  text?: string;
}

/** What a view gets for its tool (and its own tools/call). */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
}

export interface HostContext {
  theme: Theme;
  displayMode: 'inline' | 'fullscreen';
  availableDisplayModes: ('inline' | 'fullscreen')[];
  containerDimensions: { maxHeight: number };
  locale: string;
  platform: 'desktop' | 'web';
}

export interface HostDeps {
  /** Posts to the view's frame (its contentWindow). */
  post(message: unknown): void;
  /** The view's tools/call: through the app's approvals; rejects with a message to show the view. */
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** Asks the person; resolves true once they clicked to go on. */
  confirmLink(url: string): Promise<boolean>;
  confirmMessage(text: string): Promise<boolean>;
  /** A new height for the frame (already clamped). */
  resize(height: number): void;
  context(): HostContext;
  /** The view flooded the window: the caller tears it down. */
  onFlood(): void;
  toolInput: Record<string, unknown>;
  toolResult: CallToolResult | null;
  now?: () => number;
  schedule?: (f: () => void) => void;
}

/** JSON-RPC error codes used here. */
export const ERR_INVALID_REQUEST = -32600;
export const ERR_METHOD_NOT_FOUND = -32601;
export const ERR_INVALID_PARAMS = -32602;
export const ERR_REFUSED = -32000;

type Id = number | string;

interface Incoming {
  id?: Id;
  method?: string;
  params?: Record<string, unknown>;
  isResponse: boolean;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The one door: a message event counts only when it comes from the view's
 * own frame window (its origin is opaque, "null", so the source is what
 * identifies it). Anything else — another frame, the window itself, an
 * extension, a view that navigated away (no frame window) — is ignored.
 */
export function acceptMessage(e: Pick<MessageEvent, 'source'>, frame: Window | null | undefined): boolean {
  return !!frame && e.source === frame;
}

/** A view's message, checked: JSON-RPC 2.0, a short method, an id that is a number or a short string. */
export function readMessage(data: unknown): Incoming | null {
  if (!isObject(data) || data.jsonrpc !== '2.0') return null;
  let size = 0;
  try {
    size = JSON.stringify(data).length;
  } catch {
    return null;
  }
  if (size > MAX_MESSAGE_CHARS) return null;
  const { id, method, params } = data;
  if (id !== undefined && !(typeof id === 'number' && Number.isFinite(id)) && !(typeof id === 'string' && id.length <= 64)) return null;
  if (params !== undefined && !isObject(params)) return null;
  if (method === undefined) {
    // A response to a request of ours (we send none that need one).
    return id === undefined ? null : { id, isResponse: true };
  }
  if (typeof method !== 'string' || method.length === 0 || method.length > MAX_METHOD_CHARS) return null;
  return { id: id as Id | undefined, method, params: params as Record<string, unknown> | undefined, isResponse: false };
}

export function clampHeight(h: unknown, max: number): number | null {
  if (typeof h !== 'number' || !Number.isFinite(h)) return null;
  return Math.round(Math.min(Math.max(h, MIN_HEIGHT), max));
}

/** An http(s) URL a view may ask to open, else null. */
export function linkOf(u: unknown): string | null {
  if (typeof u !== 'string' || u.length > MAX_LINK_CHARS) return null;
  try {
    const url = new URL(u);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** A ui/message's text (text blocks only, bounded), else null. */
export function messageText(params: Record<string, unknown> | undefined): string | null {
  if (!params || params.role !== 'user' || !Array.isArray(params.content)) return null;
  const parts: string[] = [];
  for (const c of params.content as unknown[]) {
    if (!isObject(c) || c.type !== 'text' || typeof c.text !== 'string') return null;
    parts.push(c.text);
  }
  const text = parts.join('\n').trim();
  return text && text.length <= MAX_VIEW_MESSAGE_CHARS ? text : null;
}

export class AppHost {
  private tokens = RATE;
  private last = 0;
  private dropped = 0;
  private stopped = false;
  private initialized = false;
  private callBusy = false;
  private askBusy = false;
  private pendingHeight: number | null = null;
  private sizeScheduled = false;
  private readonly now: () => number;
  private readonly schedule: (f: () => void) => void;

  constructor(private readonly d: HostDeps) {
    this.now = d.now ?? (() => Date.now());
    this.schedule = d.schedule ?? ((f) => requestAnimationFrame(f));
    this.last = this.now();
  }

  /** Stops answering (the view was torn down). */
  stop(): void {
    this.stopped = true;
  }

  /** Tells the view about a new theme or display mode. */
  contextChanged(): void {
    if (this.initialized && !this.stopped) this.notify('ui/notifications/host-context-changed', { ...this.d.context() });
  }

  /** Tells the view its result (a result that arrived after it loaded). */
  sendResult(r: CallToolResult): void {
    this.d.toolResult = r;
    if (this.initialized && !this.stopped) this.notify('ui/notifications/tool-result', { ...r });
  }

  /** One message from the view's own frame (acceptMessage already passed). */
  handle(data: unknown): void {
    if (this.stopped || !this.take()) return;
    const m = readMessage(data);
    if (!m || m.isResponse) return;
    const method = m.method ?? '';
    if (m.id === undefined) {
      this.notification(method, m.params);
      return;
    }
    void this.request(m.id, method, m.params);
  }

  private take(): boolean {
    const t = this.now();
    this.tokens = Math.min(RATE, this.tokens + ((t - this.last) / 1000) * RATE);
    this.last = t;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    this.dropped += 1;
    if (this.dropped >= FLOOD_LIMIT) {
      this.stopped = true;
      this.d.onFlood();
    }
    return false;
  }

  private notification(method: string, params: Record<string, unknown> | undefined): void {
    switch (method) {
      case 'ui/notifications/initialized':
        if (this.initialized) return;
        this.initialized = true;
        this.notify('ui/notifications/tool-input', { arguments: this.d.toolInput });
        if (this.d.toolResult) this.notify('ui/notifications/tool-result', { ...this.d.toolResult });
        return;
      case 'ui/notifications/size-changed': {
        const h = clampHeight(params?.height, this.d.context().containerDimensions.maxHeight);
        if (h === null) return;
        this.pendingHeight = h;
        if (!this.sizeScheduled) {
          this.sizeScheduled = true;
          this.schedule(() => {
            this.sizeScheduled = false;
            if (this.pendingHeight !== null && !this.stopped) this.d.resize(this.pendingHeight);
            this.pendingHeight = null;
          });
        }
        return;
      }
      default:
        // notifications/message (logs), request-teardown, unknown: ignored.
        return;
    }
  }

  private async request(id: Id, method: string, params: Record<string, unknown> | undefined): Promise<void> {
    switch (method) {
      case 'ui/initialize':
        this.reply(id, {
          protocolVersion: PROTOCOL_VERSION,
          hostInfo: { name: 'Juncture', version: '1' },
          hostCapabilities: { openLinks: {}, serverTools: {}, message: { text: {} }, logging: {} },
          hostContext: this.d.context(),
        });
        return;
      case 'ping':
        this.reply(id, {});
        return;
      case 'ui/request-display-mode':
        this.reply(id, { mode: this.d.context().displayMode });
        return;
      case 'tools/call':
        return this.toolCall(id, params);
      case 'ui/open-link': {
        const url = linkOf(params?.url);
        if (!url) return this.fail(id, ERR_INVALID_PARAMS, 'Juncture opens only http and https links.');
        return this.ask(id, () => this.d.confirmLink(url));
      }
      case 'ui/message': {
        const text = messageText(params);
        if (text === null) return this.fail(id, ERR_INVALID_PARAMS, `A view's message is text from the user, at most ${MAX_VIEW_MESSAGE_CHARS} characters.`);
        return this.ask(id, () => this.d.confirmMessage(text));
      }
      default:
        return this.fail(id, ERR_METHOD_NOT_FOUND, `Juncture does not offer ${method} to views.`);
    }
  }

  private async toolCall(id: Id, params: Record<string, unknown> | undefined): Promise<void> {
    const name = params?.name;
    const args = params?.arguments ?? {};
    if (typeof name !== 'string' || name === '' || name.length > 128 || !isObject(args)) {
      return this.fail(id, ERR_INVALID_PARAMS, 'tools/call takes a tool name and an object of arguments.');
    }
    if (this.callBusy) return this.fail(id, ERR_REFUSED, 'Another call of this view is waiting; one at a time.');
    this.callBusy = true;
    try {
      const r = await this.d.callTool(name, args);
      this.reply(id, r);
    } catch (e) {
      this.fail(id, ERR_REFUSED, e instanceof Error ? e.message : String(e));
    } finally {
      this.callBusy = false;
    }
  }

  private async ask(id: Id, question: () => Promise<boolean>): Promise<void> {
    if (this.askBusy) return this.fail(id, ERR_REFUSED, 'The view already asked something; one question at a time.');
    this.askBusy = true;
    try {
      const ok = await question();
      this.reply(id, ok ? {} : { isError: true });
    } catch {
      this.reply(id, { isError: true });
    } finally {
      this.askBusy = false;
    }
  }

  private notify(method: string, params: Record<string, unknown>): void {
    this.d.post({ jsonrpc: '2.0', method, params });
  }

  private reply(id: Id, result: unknown): void {
    if (!this.stopped) this.d.post({ jsonrpc: '2.0', id, result });
  }

  private fail(id: Id, code: number, message: string): void {
    if (!this.stopped) this.d.post({ jsonrpc: '2.0', id, error: { code, message } });
  }
}

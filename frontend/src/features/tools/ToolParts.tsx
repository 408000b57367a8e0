import { useContext, useEffect, useId, useRef, useState } from 'react';
import type { Transport } from '../../transport';
import { TransportContext } from '../../transport';
import type { ToolPart } from '../../transport/contract';
import { webOpenExternal } from '../../transport/platform';
import { executeClientTool } from '../../lib/clientTools';
import { safeUrl } from '../../lib/safeUrl';
import { IconClose } from '../../ui/icons';
import type { ToolCallView } from '../../state/types';
import { AppView } from '../mcp-apps/AppView';
import { AlertLine } from '../../ui/AlertLine';
import { focusOnMount } from '../../lib/focusOnMount';

// What a tool result holds besides its text (docs/contract.md "Part"):
// images as thumbnails, structured content and embedded text resources in
// collapsible blocks, resource links as buttons that ask first — the same
// confirmation and the same opening path as the open_url client tool.
// Nothing here renders a bare <a href> to a URL a server wrote.

const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A data: URL for an image part, or null for another type or data that is not base64. */
export function imageSrc(p: ToolPart): string | null {
  const type = (p.mimeType ?? '').toLowerCase();
  if (!IMAGE_TYPES.has(type) || !p.data) return null;
  const data = p.data.replace(/\s+/g, '');
  return BASE64.test(data) ? `data:${type};base64,${data}` : null;
}

/** The URL if Juncture opens it (http or https, as open_url does), else null. */
export function openableUrl(url: string): string | null {
  const safe = safeUrl(url);
  if (!safe || safe.startsWith('#')) return null;
  try {
    const u = new URL(safe);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/**
 * Opens an http(s) URL the way the open_url client tool does (through the
 * transport: the desktop runtime or a new browser tab). Resolves to an
 * error message, or null once it opened. Call it from the click itself:
 * a browser blocks tabs no click opened.
 */
export async function openLink(transport: Transport | null, url: string): Promise<string | null> {
  const ok = openableUrl(url);
  if (!ok) return 'Juncture opens only http and https links.';
  if (!transport) return webOpenExternal(ok) ? null : `Could not open ${ok}.`;
  const r = await executeClientTool(transport, 'open_url', JSON.stringify({ url: ok }), true);
  return r.isError ? r.content : null;
}

/** "Open example.com?" with the full URL: the one confirmation before a link a server gave is opened. */
export function LinkConfirm({
  url,
  onOpened,
  onCancel,
  openLabel = 'Open',
}: {
  url: string;
  onOpened: () => void;
  onCancel: () => void;
  openLabel?: string;
}) {
  const id = useId();
  const transport = useContext(TransportContext);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const openRef = useRef<HTMLButtonElement>(null);
  useEffect(() => openRef.current?.focus(), []);
  const href = openableUrl(url);
  return (
    <div className="link-confirm" role="group" aria-labelledby={`${id}-q`} aria-describedby={`${id}-url`}>
      <p className="link-confirm-q" id={`${id}-q`}>
        Open {hostOf(href ?? url)}?
      </p>
      <p className="link-confirm-url mono" id={`${id}-url`}>
        {url}
      </p>
      <div className="link-confirm-actions">
        <button
          ref={openRef}
          type="button"
          className="btn primary small"
          disabled={busy || !href}
          onClick={() => {
            setBusy(true);
            void openLink(transport, url).then((err) => {
              setBusy(false);
              setError(err);
              if (!err) onOpened();
            });
          }}
        >
          {openLabel}
        </button>
        <button type="button" className="btn subtle small" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {!href && <p className="link-confirm-note">Juncture opens only http and https links.</p>}
      <AlertLine className="link-confirm-error" text={error} />
    </div>
  );
}

function LinkPart({ part }: { part: ToolPart }) {
  const [asking, setAsking] = useState(false);
  const [opened, setOpened] = useState(false);
  const uri = part.uri ?? '';
  const label = part.title || part.name || uri;
  if (!openableUrl(uri)) {
    // Not a web page (file:, a server's own scheme…): shown, never opened.
    return (
      <div className="tool-part tool-link is-inert">
        <span className="tool-link-label">{label}</span>
        {label !== uri && <span className="tool-link-uri mono">{uri}</span>}
      </div>
    );
  }
  return (
    <div className="tool-part tool-link">
      <button
        type="button"
        className="tool-link-btn"
        aria-expanded={asking}
        title={uri}
        onClick={() => {
          setOpened(false);
          setAsking((a) => !a);
        }}
      >
        <span aria-hidden="true">↗ </span>
        {label}
      </button>
      {label !== uri && <span className="tool-link-uri mono">{hostOf(uri)}</span>}
      {opened && (
        <span className="tool-link-done" role="status">
          Opened
        </span>
      )}
      {asking && (
        <LinkConfirm
          url={uri}
          onOpened={() => {
            setAsking(false);
            setOpened(true);
          }}
          onCancel={() => setAsking(false)}
        />
      )}
    </div>
  );
}

/** A full-size image in a modal dialog (tool images, attached images). */
export function ImageViewer({ src, alt, onClose }: { src: string; alt: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  // Closing gives focus back to what opened the viewer (the thumbnail): the
  // dialog leaves the page before it is closed, so the browser cannot. Read
  // while rendering, before the Close button takes focus.
  const [opener] = useState(() => document.activeElement);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (typeof d.showModal === 'function') d.showModal();
    else d.setAttribute('open', '');
    return () => {
      if (typeof d.close === 'function' && d.open) d.close();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus({ preventScroll: true });
    };
  }, [opener]);
  return (
    <dialog
      ref={ref}
      className="tool-image-viewer"
      aria-labelledby={`${id}-t`}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onClose();
        }
      }}
      onClick={(e) => {
        // A click on the backdrop (the dialog itself, outside the image) closes it.
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <header className="tool-image-head">
        <span id={`${id}-t`}>{alt}</span>
        <button type="button" className="icon-btn" aria-label="Close image" onClick={onClose} ref={focusOnMount}>
          <IconClose />
        </button>
      </header>
      <img src={src} alt={alt} />
    </dialog>
  );
}

function ImagePart({ part }: { part: ToolPart }) {
  const [open, setOpen] = useState(false);
  const src = imageSrc(part);
  const alt = part.title || part.name || 'Image from the tool';
  if (!src) {
    return (
      <div className="tool-part tool-note">
        {alt} ({part.mimeType || 'unknown type'}) — not shown: Juncture shows PNG, JPEG, GIF and WebP images.
      </div>
    );
  }
  return (
    <div className="tool-part tool-image">
      <button type="button" className="tool-thumb" aria-label={`Show full size: ${alt}`} onClick={() => setOpen(true)}>
        <img src={src} alt={alt} />
      </button>
      {open && <ImageViewer src={src} alt={alt} onClose={() => setOpen(false)} />}
    </div>
  );
}

function StructuredPart({ part }: { part: ToolPart }) {
  return (
    <details className="tool-part tool-collapsible">
      <summary>{part.title || 'Structured result'}</summary>
      <pre className="tool-pre mono">{JSON.stringify(part.json ?? null, null, 2)}</pre>
    </details>
  );
}

function ResourcePart({ part }: { part: ToolPart }) {
  const label = part.title || part.name || part.uri || 'Resource';
  if (!part.data) {
    return (
      <div className="tool-part tool-note">
        {label}
        {part.mimeType ? ` (${part.mimeType})` : ''}
      </div>
    );
  }
  return (
    <details className="tool-part tool-collapsible">
      <summary>
        {label}
        {part.mimeType && <span className="tool-part-type"> · {part.mimeType}</span>}
      </summary>
      <pre className="tool-pre mono">{part.data}</pre>
    </details>
  );
}

/** Every part of one tool result, images first (thumbnails side by side), an MCP App's view last. */
export function ToolParts({ parts, app }: { parts: readonly ToolPart[]; app?: { threadId: string | undefined; tool: ToolCallView } }) {
  const images = parts.filter((p) => p.kind === 'image');
  const rest = parts.filter((p) => p.kind !== 'image' && p.kind !== 'app');
  const view = parts.find((p) => p.kind === 'app');
  return (
    <div className="tool-parts">
      {images.length > 0 && (
        <div className="tool-images">
          {images.map((p, i) => (
            <ImagePart key={`i${i}`} part={p} />
          ))}
        </div>
      )}
      {rest.map((p, i) =>
        p.kind === 'link' ? (
          <LinkPart key={i} part={p} />
        ) : p.kind === 'structured' ? (
          <StructuredPart key={i} part={p} />
        ) : (
          <ResourcePart key={i} part={p} />
        ),
      )}
      {view && app && <AppView threadId={app.threadId} tool={app.tool} part={view} />}
    </div>
  );
}

// Files the person attaches to a message (docs: README "Attachments").
// The composer reads them, checks them against the limits Go enforces
// (agent/attach) and what the model takes, and sends them to
// SendInput as {name, mimeType, data (base64)}.

import type { AttachmentInput, AttachmentRef, PDFInfo } from '../transport/contract.gen';
import type { Transport } from '../transport';

export const MAX_FILE_BYTES = 20 * 1024 * 1024;
export const MAX_MESSAGE_BYTES = 50 * 1024 * 1024;
export const MAX_FILES = 10;
export const MAX_IMAGE_SIDE = 2048;

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/** What the composer states (tooltip of the paperclip, the hint line). */
export const LIMITS_TEXT = `Images (PNG, JPEG, WebP, GIF; sent at most ${MAX_IMAGE_SIDE} px), PDFs, text and code files · up to ${MAX_FILE_BYTES >> 20} MiB a file, ${MAX_MESSAGE_BYTES >> 20} MiB and ${MAX_FILES} files a message`;

export type FileKind = 'image' | 'pdf' | 'text' | 'other';

/** A file in the composer, read and ready to send. */
export interface PendingFile {
  key: string;
  name: string;
  mimeType: string;
  size: number;
  kind: FileKind;
  /** base64 of the bytes. */
  data: string;
  /** data: URL of an image, for its thumbnail. */
  previewUrl?: string;
  /** What Go read of a PDF before sending (InspectPDF); absent while it reads. */
  pdf?: PDFInfo;
  /** Why a send would refuse this file, as Go said before sending (InspectPDF). */
  refusal?: string;
}

/** A file a message shows: a stored reference, or the composer's copy while it is being sent. */
export interface ShownAttachment extends AttachmentRef {
  previewUrl?: string;
}

const TEXT_TYPES = new Set(['application/json', 'application/xml', 'application/javascript', 'application/x-sh', 'application/yaml', 'application/toml', 'application/x-yaml']);

/** The kind of a file from its type and, when that says nothing, its first bytes. */
export function kindOf(name: string, mimeType: string, head: Uint8Array): FileKind {
  const t = mimeType.toLowerCase();
  if (IMAGE_TYPES.includes(t)) return 'image';
  if (t === 'application/pdf' || /\.pdf$/i.test(name) || startsWith(head, '%PDF-')) return 'pdf';
  if (t.startsWith('image/') || t.startsWith('audio/') || t.startsWith('video/')) return 'other';
  if (t.startsWith('text/') || TEXT_TYPES.has(t)) return 'text';
  return looksLikeText(head) ? 'text' : 'other';
}

function startsWith(b: Uint8Array, s: string): boolean {
  if (b.length < s.length) return false;
  for (let i = 0; i < s.length; i++) if (b[i] !== s.charCodeAt(i)) return false;
  return true;
}

/** No NUL byte and valid UTF-8 in the first bytes: a text or code file. */
export function looksLikeText(b: Uint8Array): boolean {
  if (b.includes(0)) return false;
  try {
    // A cut at the end of the sample may split a character: allow that.
    new TextDecoder('utf-8', { fatal: true }).decode(b.subarray(0, Math.max(0, b.length - 4)));
    return true;
  } catch {
    return false;
  }
}

export function toBase64(bytes: Uint8Array): string {
  let s = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) s += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(s);
}

let fileSeq = 0;

function bytesOf(file: Blob): Promise<ArrayBuffer> {
  if (typeof file.arrayBuffer === 'function') return file.arrayBuffer();
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(r.result as ArrayBuffer);
    r.onerror = () => reject(r.error ?? new Error('the file could not be read'));
    r.readAsArrayBuffer(file);
  });
}

/** Reads a picked, pasted or dropped file. */
export async function readFile(file: File): Promise<PendingFile> {
  const bytes = new Uint8Array(await bytesOf(file));
  const kind = kindOf(file.name, file.type, bytes.subarray(0, 8192));
  const data = toBase64(bytes);
  const mimeType = file.type || (kind === 'pdf' ? 'application/pdf' : kind === 'text' ? 'text/plain' : 'application/octet-stream');
  const p: PendingFile = { key: `f${++fileSeq}`, name: file.name || 'pasted-file', mimeType, size: bytes.length, kind, data };
  if (kind === 'image') p.previewUrl = `data:${mimeType};base64,${data}`;
  return p;
}

export function formatSize(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KiB`;
  return `${n} B`;
}

/**
 * Why these files cannot be sent now, one line each (empty: they can).
 * Go checks the same again and refuses with its own words.
 */
export function problemsOf(files: readonly PendingFile[], acceptsImages: boolean): string[] {
  const out: string[] = [];
  if (files.length > MAX_FILES) out.push(`${files.length} files: at most ${MAX_FILES} can be sent with one message.`);
  let total = 0;
  for (const f of files) {
    total += f.size;
    if (f.kind === 'image' && !acceptsImages)
      out.push(`${f.name}: the current model does not accept images (Settings › Model accepts images). Remove it to send.`);
    else if (f.refusal) out.push(f.refusal);
    else if (f.kind === 'other') out.push(`${f.name}: this type of file (${f.mimeType}) cannot be sent — images, PDFs, text and code files can.`);
    if (f.size === 0) out.push(`${f.name}: the file is empty.`);
    else if (f.size > MAX_FILE_BYTES) out.push(`${f.name} is ${formatSize(f.size)}: at most ${MAX_FILE_BYTES >> 20} MiB a file.`);
  }
  if (total > MAX_MESSAGE_BYTES) out.push(`The files add up to ${formatSize(total)}: at most ${MAX_MESSAGE_BYTES >> 20} MiB a message.`);
  return out;
}

/** Whether base64 data starts as a PDF does ("%PDF-"), as Go tells a PDF. */
export function isPdfData(data: string): boolean {
  try {
    return atob(data.slice(0, 8)).startsWith('%PDF-');
  } catch {
    return false;
  }
}

/** What a PDF's chip says under its name: pages, size, and whether the model can read it. */
export function pdfDetail(info: PDFInfo): { pages: string; noText: boolean } {
  return { pages: `PDF · ${info.pages} page${info.pages === 1 ? '' : 's'}`, noText: !info.hasText };
}

export function toInput(f: PendingFile): AttachmentInput {
  return { name: f.name, mimeType: f.mimeType, data: f.data };
}

export function toShown(f: PendingFile): ShownAttachment {
  const s: ShownAttachment = { id: '', name: f.name, mimeType: f.mimeType, size: f.size };
  if (f.previewUrl) s.previewUrl = f.previewUrl;
  return s;
}

export function isImage(mimeType: string): boolean {
  return IMAGE_TYPES.includes(mimeType);
}

// Stored files as data: URLs, fetched once per thread and file.
const cache = new Map<string, Promise<string>>();

/** The file's bytes as a data: URL (GetAttachment), cached. */
export function attachmentUrl(transport: Transport, threadId: string, id: string): Promise<string> {
  const key = `${threadId}/${id}`;
  let p = cache.get(key);
  if (!p) {
    p = transport.call('GetAttachment', threadId, id).then((d) => `data:${d.mimeType};base64,${d.data}`);
    p.catch(() => cache.delete(key));
    if (cache.size >= 64) cache.delete(cache.keys().next().value as string);
    cache.set(key, p);
  }
  return p;
}

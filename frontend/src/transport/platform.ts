// Web fallbacks for the two side effects the UI performs on the person's
// behalf (copy, open a link). The Wails transport uses the runtime instead.

export function isSafeExternalUrl(url: string, allowMailto = true): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return u.protocol === 'http:' || u.protocol === 'https:' || (allowMailto && u.protocol === 'mailto:');
}

export async function webCopyText(text: string): Promise<void> {
  if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // fall through to the selection-based copy (e.g. no clipboard permission)
    }
  }
  const ta = document.createElement('textarea');
  ta.value = text;
  ta.setAttribute('readonly', '');
  ta.style.position = 'fixed';
  ta.style.opacity = '0';
  document.body.appendChild(ta);
  ta.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } finally {
    ta.remove();
  }
  if (!ok) throw new Error('The clipboard is not available in this browser.');
}

export function webOpenExternal(url: string): boolean {
  if (!isSafeExternalUrl(url)) return false;
  window.open(url, '_blank', 'noopener,noreferrer');
  return true;
}

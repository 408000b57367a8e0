import { useContext, useEffect, useState } from 'react';
import { TransportContext } from '../../transport';
import { attachmentUrl, formatSize, isImage, type ShownAttachment } from '../../lib/attachments';
import { ImageViewer } from '../tools/ToolParts';
import { IconFile } from '../../ui/icons';
import './Attachments.css';
import '../tools/ToolBlock.css';

export interface AttachmentListProps {
  threadId: string | undefined;
  attachments: readonly ShownAttachment[];
}

/** A message's files: images as thumbnails (full size on click), others as chips that open or save the file. */
export function AttachmentList({ threadId, attachments }: AttachmentListProps) {
  if (!attachments.length) return null;
  return (
    <ul className="msg-attachments" aria-label="Attached files">
      {attachments.map((a, i) => (
        <li key={`${a.id}-${i}`}>{isImage(a.mimeType) ? <ImageAttachment threadId={threadId} a={a} /> : <FileAttachment threadId={threadId} a={a} />}</li>
      ))}
    </ul>
  );
}

function useAttachmentUrl(threadId: string | undefined, a: ShownAttachment, load: boolean): string | null {
  const transport = useContext(TransportContext);
  const [url, setUrl] = useState<string | null>(a.previewUrl ?? null);
  useEffect(() => {
    if (!load || url || !transport || !threadId || !a.id) return;
    let live = true;
    attachmentUrl(transport, threadId, a.id).then(
      (u) => live && setUrl(u),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [load, url, transport, threadId, a.id]);
  return url;
}

function ImageAttachment({ threadId, a }: { threadId: string | undefined; a: ShownAttachment }) {
  const [open, setOpen] = useState(false);
  const url = useAttachmentUrl(threadId, a, true);
  return (
    <>
      <button type="button" className="attach-image" aria-label={`Show full size: ${a.name}`} title={`${a.name} · ${formatSize(a.size)}`} onClick={() => setOpen(true)} disabled={!url}>
        {url ? <img src={url} alt={a.name} /> : <span className="attach-image-wait">{a.name}</span>}
      </button>
      {open && url && <ImageViewer src={url} alt={a.name} onClose={() => setOpen(false)} />}
    </>
  );
}

function FileAttachment({ threadId, a }: { threadId: string | undefined; a: ShownAttachment }) {
  const transport = useContext(TransportContext);
  const [error, setError] = useState<string | null>(null);
  const detail = [a.mimeType === 'application/pdf' ? `PDF · ${a.pages ?? 0} page${a.pages === 1 ? '' : 's'}` : null, formatSize(a.size)]
    .filter(Boolean)
    .join(' · ');
  const open = async () => {
    if (!transport || !threadId || !a.id) return;
    try {
      const url = await attachmentUrl(transport, threadId, a.id);
      const link = document.createElement('a');
      link.href = url;
      link.download = a.name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_') || 'file';
      link.rel = 'noopener';
      link.style.display = 'none';
      document.body.appendChild(link);
      link.click();
      link.remove();
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <button type="button" className="attach-file" onClick={() => void open()} disabled={!a.id} title={error ?? `Save ${a.name}`} aria-label={`Save ${a.name} (${detail})`}>
      <span className="attach-icon" aria-hidden="true">
        <IconFile />
      </span>
      <span className="attach-file-text">
        <span className="attach-name">{a.name}</span>
        <span className="attach-size">{detail}</span>
      </span>
    </button>
  );
}

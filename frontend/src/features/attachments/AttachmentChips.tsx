import type { PendingFile } from '../../lib/attachments';
import { formatSize, pdfDetail } from '../../lib/attachments';
import { IconClose, IconFile } from '../../ui/icons';
import './Attachments.css';

export interface AttachmentChipsProps {
  files: readonly PendingFile[];
  onRemove: (key: string) => void;
  /** Names of the files that cannot be sent as things stand (marked). */
  refused?: ReadonlySet<string>;
}

/** The composer's attached files: a preview, the name and size, and a remove button. */
export function AttachmentChips({ files, onRemove, refused }: AttachmentChipsProps) {
  if (!files.length) return null;
  return (
    <ul className="attach-chips" aria-label="Attached files">
      {files.map((f) => (
        <li key={f.key} className={`attach-chip${refused?.has(f.key) ? ' is-refused' : f.pdf && !f.pdf.hasText ? ' is-warned' : ''}`} data-kind={f.kind}>
          {f.previewUrl ? (
            <img className="attach-thumb" src={f.previewUrl} alt="" />
          ) : (
            <span className="attach-icon" aria-hidden="true">
              <IconFile />
            </span>
          )}
          <span className="attach-chip-text">
            <span className="attach-name" title={f.name}>
              {f.name}
            </span>
            <span className="attach-size">{f.pdf ? `${pdfDetail(f.pdf).pages} · ${formatSize(f.size)}` : formatSize(f.size)}</span>
            {f.pdf && pdfDetail(f.pdf).noText && (
              <span className="attach-warn" title="No text could be read from this PDF (a scan, or only images): the model gets its name and page count, not its content.">
                No text found: the model will not be able to read it
              </span>
            )}
          </span>
          <button type="button" className="attach-remove" aria-label={`Remove ${f.name}`} title="Remove" onClick={() => onRemove(f.key)}>
            <IconClose />
          </button>
        </li>
      ))}
    </ul>
  );
}

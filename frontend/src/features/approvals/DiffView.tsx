import type { Preview } from '../../state/interrupts';
import './DiffView.css';

function isUnifiedDiff(p: Preview): boolean {
  // kind "diff" may also carry a plain note ("No changes…", binary file).
  return /^(---|\+\+\+|@@) /m.test(p.body);
}

/** The `juncture:preview` of a write: a unified diff, or the new content. */
export function DiffView({ preview }: { preview: Preview }) {
  const diff = isUnifiedDiff(preview);
  const lines = preview.body.replace(/\n$/, '').split('\n');
  return (
    <figure className="diff">
      <figcaption>
        <span className="diff-title mono">{preview.title || 'Changes'}</span>
        {preview.folder && <span className="diff-folder mono">in {preview.folder}</span>}
        {!diff && preview.kind && preview.kind !== 'diff' && (
          <span className="diff-kind">{preview.kind.replace(/[-_]/g, ' ')}</span>
        )}
      </figcaption>
      <pre className="diff-body mono" aria-label={diff ? 'Proposed changes' : 'Proposed content'}>
        {diff
          ? lines.map((l, i) => {
              const cls =
                l.startsWith('+++') || l.startsWith('---')
                  ? 'diff-file'
                  : l.startsWith('@@')
                    ? 'diff-hunk'
                    : l.startsWith('+')
                      ? 'diff-add'
                      : l.startsWith('-')
                        ? 'diff-del'
                        : 'diff-ctx';
              return (
                <span key={i} className={`diff-line ${cls}`}>
                  {cls === 'diff-add' && <span className="visually-hidden">added: </span>}
                  {cls === 'diff-del' && <span className="visually-hidden">removed: </span>}
                  {l || ' '}
                  {'\n'}
                </span>
              );
            })
          : preview.body}
      </pre>
    </figure>
  );
}

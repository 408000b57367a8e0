import './InstructionsDivider.css';

// The thread's instructions (a system message on the path: they are
// versioned in the tree like everything else) shown as a muted divider,
// "Instructions updated", that opens to show the text. Not a chat bubble.

export function InstructionsDivider({ id, text }: { id: string; text: string }) {
  const cleared = text.trim() === '';
  return (
    <article className="instr-divider" aria-label="Instructions" data-message-id={id}>
      <details>
        <summary>
          <span className="instr-rule" aria-hidden="true" />
          <span className="instr-label">{cleared ? 'Instructions cleared' : 'Instructions updated'}</span>
          <span className="instr-rule" aria-hidden="true" />
        </summary>
        {!cleared && <div className="instr-text">{text}</div>}
      </details>
    </article>
  );
}

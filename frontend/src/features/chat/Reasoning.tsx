import { useEffect, useRef, useState } from 'react';

/**
 * A message's reasoning: open while it streams (the person sees the model
 * think), folded once it ends; either way the person may open or close it,
 * and a choice they made is kept.
 */
export function Reasoning({ text, streaming }: { text: string; streaming: boolean }) {
  const [open, setOpen] = useState(streaming);
  const chosen = useRef(false);
  const was = useRef(streaming);
  useEffect(() => {
    if (was.current !== streaming && !chosen.current) setOpen(streaming);
    was.current = streaming;
  }, [streaming]);
  return (
    <details
      className="msg-reasoning"
      open={open}
      onToggle={(e) => {
        const now = e.currentTarget.open;
        if (now !== open) {
          chosen.current = true;
          setOpen(now);
        }
      }}
    >
      <summary>{streaming ? 'Thinking…' : 'Reasoning'}</summary>
      <div className="msg-reasoning-body">{text}</div>
    </details>
  );
}

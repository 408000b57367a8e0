import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { BranchInfo } from '../../state/types';
import './BranchSwitcher.css';

// "‹ 2/3 ›" on a message that has siblings (an edited question, a
// regenerated answer): the arrows make the path through the previous or
// next sibling the active one (SelectBranch). A switch replaces the row
// with its sibling's, so the focus is handed to the new row's switcher.

/** The switcher that should take the focus when it mounts (the row was just replaced by a sibling's). */
let pendingFocus: { group: string; side: 'prev' | 'next'; until: number } | null = null;

const groupOf = (b: BranchInfo) => b.siblings.join('\u0000');

export interface BranchSwitcherProps {
  branch: BranchInfo;
  /** Selects the sibling with this message id. */
  onSelect: (messageId: string) => void;
  /** No switch now (the thread is running); the reason is the buttons' title. */
  disabledReason?: string | null;
}

export function BranchSwitcher({ branch, onSelect, disabledReason = null }: BranchSwitcherProps) {
  const { index, count, siblings } = branch;
  const prevRef = useRef<HTMLButtonElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);
  const prevId = index > 1 ? siblings[index - 2] : undefined;
  const nextId = index < count ? siblings[index] : undefined;
  const off = disabledReason !== null;

  const group = groupOf(branch);
  useEffect(() => {
    const p = pendingFocus;
    if (!p || p.group !== group) return;
    pendingFocus = null;
    if (Date.now() > p.until) return;
    const want = p.side === 'prev' ? prevRef.current : nextRef.current;
    const other = p.side === 'prev' ? nextRef.current : prevRef.current;
    (want && !want.disabled ? want : other)?.focus();
  }, [group]);

  const go = (side: 'prev' | 'next') => {
    const id = side === 'prev' ? prevId : nextId;
    if (!id || off) return;
    pendingFocus = { group, side, until: Date.now() + 3000 };
    onSelect(id);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.key === 'ArrowLeft') {
      e.preventDefault();
      go('prev');
    } else if (e.key === 'ArrowRight') {
      e.preventDefault();
      go('next');
    }
  };

  return (
    <div className="branch-switch" role="group" aria-label="Versions" onKeyDown={onKeyDown}>
      <button
        ref={prevRef}
        type="button"
        className="branch-btn"
        aria-label="Previous version"
        title={off ? disabledReason : 'Previous version'}
        disabled={!prevId || off}
        onClick={() => go('prev')}
      >
        <span aria-hidden="true">‹</span>
      </button>
      <span className="branch-pos" aria-live="polite" aria-atomic="true">
        <span aria-hidden="true">
          {index}/{count}
        </span>
        <span className="visually-hidden">
          Version {index} of {count}
        </span>
      </span>
      <button
        ref={nextRef}
        type="button"
        className="branch-btn"
        aria-label="Next version"
        title={off ? disabledReason : 'Next version'}
        disabled={!nextId || off}
        onClick={() => go('next')}
      >
        <span aria-hidden="true">›</span>
      </button>
    </div>
  );
}

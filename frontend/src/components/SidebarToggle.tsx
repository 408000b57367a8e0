import { forwardRef } from 'react';
import { MOD } from './Sidebar';

export interface SidebarToggleProps {
  shown: boolean;
  onToggle: () => void;
}

/**
 * Shows or hides the conversation sidebar. It stays in the window's top
 * left corner in every layout: in the sidebar's brand row when the sidebar
 * is shown, at the start of the chat header when it is hidden.
 */
export const SidebarToggle = forwardRef<HTMLButtonElement, SidebarToggleProps>(function SidebarToggle(
  { shown, onToggle },
  ref,
) {
  const label = shown ? 'Hide sidebar' : 'Show sidebar';
  return (
    <button
      ref={ref}
      type="button"
      className="icon-btn sidebar-toggle"
      aria-label={label}
      aria-controls="sidebar"
      aria-expanded={shown}
      aria-keyshortcuts={MOD === '⌘' ? 'Meta+B' : 'Control+B'}
      title={`${label} (${MOD}B)`}
      onClick={onToggle}
    >
      <svg
        viewBox="0 0 24 24"
        width="18"
        height="18"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
      >
        <rect x="3" y="4" width="18" height="16" rx="2.5" />
        <path d="M9 4v16" />
        {shown ? <path d="M6 9.5h.01M6 12h.01" /> : <path d="m13 10 2 2-2 2" />}
      </svg>
    </button>
  );
});

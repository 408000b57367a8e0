import { forwardRef, memo } from 'react';
import { MOD } from './Sidebar';
import { IconSidebar } from '../../ui/icons';

export interface SidebarToggleProps {
  shown: boolean;
  onToggle: () => void;
}

/**
 * Shows or hides the conversation sidebar. It stays in the window's top
 * left corner in every layout: in the sidebar's brand row when the sidebar
 * is shown, at the start of the chat header when it is hidden.
 */
// Memoized (with a stable onToggle): App renders once per frame while an
// answer streams, and this button does not change with it.
export const SidebarToggle = memo(forwardRef<HTMLButtonElement, SidebarToggleProps>(function SidebarToggle(
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
      <IconSidebar open={shown} />
    </button>
  );
}));

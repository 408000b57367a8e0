import type { ThreadState } from '../state/types';
import { useAnnouncements } from '../hooks/useAnnouncements';

/**
 * The screen reader's news of the open thread, rendered once in the chat
 * view: a polite status region (an answer finished, Stopped, a card
 * appeared) and an assertive one for a run's error. The message list itself
 * stays aria-live="off" so a stream is never read token by token.
 */
export function Announcer({ state }: { state: ThreadState }) {
  const said = useAnnouncements(state);
  // The same words said twice differ by a no-break space, so they are read again.
  const text = said ? said.text + (said.seq % 2 ? '' : '\u00a0') : '';
  return (
    <div className="visually-hidden">
      <div role="status" aria-live="polite" aria-atomic="true" data-testid="announcer">
        {said && !said.urgent ? text : ''}
      </div>
      <div role="alert" aria-live="assertive" aria-atomic="true" data-testid="announcer-alert">
        {said?.urgent ? text : ''}
      </div>
    </div>
  );
}

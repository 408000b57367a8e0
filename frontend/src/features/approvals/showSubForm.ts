import './shortWindow.css';

/**
 * Brings an approval card's sub-form (Always allow, Deny, Edit) into view,
 * its buttons included, without sliding the card's title under the sticky
 * chat header: when both do not fit, the title wins (issue 22 item 21).
 */
export function showSubForm(sub: HTMLElement | null): void {
  if (!sub) return;
  sub.scrollIntoView?.({ block: 'nearest' });
  const card = sub.closest<HTMLElement>('.icard');
  const scroller = sub.closest<HTMLElement>('.chat');
  const head = scroller?.querySelector<HTMLElement>('.chat-head');
  if (!card || !scroller || !head) return;
  const over = head.getBoundingClientRect().bottom + 8 - card.getBoundingClientRect().top;
  if (over > 0) scroller.scrollTop -= over;
}

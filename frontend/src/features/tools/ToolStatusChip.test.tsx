import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/preact';
import { TOOL_STATES } from '../../transport/contract';
import { ToolStatusChip, chipLabel } from './ToolStatusChip';

describe('ToolStatusChip', () => {
  // TOOL_STATES is generated from agent.ToolStates: a state added in Go
  // must get a chip here, never be dropped or shown as something else.
  it.each(TOOL_STATES.map((s) => [s]))('has a label for the generated tool state %s', (state) => {
    const l = chipLabel(state);
    expect(l?.text).toBeTruthy();
    const { container, unmount } = render(<ToolStatusChip state={state} />);
    expect(container.textContent).toBe(l!.text);
    unmount();
  });

  it('shows awaiting-answer as waiting for the person', () => {
    render(<ToolStatusChip state="awaiting-answer" />);
    expect(screen.getByText('Needs your answer').className).toContain('tone-warn');
  });

  // Each chip says what it means in words, and explains itself on hover.
  it.each([
    ['requested', 'Not started yet', /has not started/],
    ['pending-client', 'Ready to run here', /runs in this window/],
    ['awaiting-approval', 'Needs your approval', /once you allow it/],
    ['preparing', 'Preparing', /still writing/],
  ] as const)('%s reads “%s”', (state, text, title) => {
    const { container, unmount } = render(<ToolStatusChip state={state} />);
    const chip = container.querySelector('.tool-chip')!;
    expect(chip.textContent).toBe(text);
    expect(chip.getAttribute('title')).toMatch(title);
    unmount();
  });

  it('knows no state Go does not send', () => {
    expect(chipLabel('exploded')).toBeUndefined();
  });
});

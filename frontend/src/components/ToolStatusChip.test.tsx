import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { TOOL_STATES } from '../transport/contract';
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
    expect(screen.getByText('Awaiting your answer').className).toContain('tone-warn');
  });

  it('knows no state Go does not send', () => {
    expect(chipLabel('exploded')).toBeUndefined();
  });
});

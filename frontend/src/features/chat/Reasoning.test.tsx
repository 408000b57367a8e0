import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/preact';
import { Reasoning } from './Reasoning';

const details = () => screen.getByText(/Thinking…|Reasoning/).closest('details')!;

describe('Reasoning', () => {
  it('TestReasoningOpenWhileStreaming: open while it streams, folded when it ends, and collapsible', () => {
    const r = render(<Reasoning text="Let me see" streaming />);
    expect(screen.getByText('Thinking…')).toBeTruthy();
    expect(details().open).toBe(true);
    r.rerender(<Reasoning text="Let me see. Done." streaming={false} />);
    expect(screen.getByText('Reasoning')).toBeTruthy();
    expect(details().open).toBe(false);
    details().open = true;
    fireEvent(details(), new Event('toggle'));
    expect(details().open).toBe(true);
  });

  it('a person who folds it while it streams keeps it folded', () => {
    const r = render(<Reasoning text="a" streaming />);
    details().open = false;
    fireEvent(details(), new Event('toggle'));
    r.rerender(<Reasoning text="ab" streaming />);
    expect(details().open).toBe(false);
    r.rerender(<Reasoning text="ab" streaming={false} />);
    expect(details().open).toBe(false);
  });

  it('a reloaded answer shows its reasoning folded', () => {
    render(<Reasoning text="old" streaming={false} />);
    expect(details().open).toBe(false);
  });
});

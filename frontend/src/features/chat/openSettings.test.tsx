import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { Composer } from './Composer';
import { EndpointErrorNote } from './Message';

// The "Open settings" buttons open Settings where it opens by itself: they
// pass no target. A button that handed its click event on gave App's
// openSettingsAt an object as the field to focus (found by the break helper).
describe('Open settings buttons', () => {
  afterEach(cleanup);

  it('in the composer of an unconnected app, opens Settings with no field to focus', () => {
    const open = vi.fn();
    render(
      <Composer
        status="idle"
        configured={false}
        onOpenSettings={open}
        onSend={async () => {}}
        onStop={async () => {}}
        queued={[]}
        onRemoveQueued={async () => {}}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Open settings' }));
    expect(open).toHaveBeenCalledTimes(1);
    expect(open.mock.calls[0]).toEqual([]);
  });

  it("under an endpoint's error, opens Settings with no field to focus", () => {
    const open = vi.fn();
    render(<EndpointErrorNote error="401 Unauthorized: invalid api key" onOpenSettings={open} />);
    fireEvent.click(screen.getByRole('button', { name: 'Open Settings' }));
    expect(open).toHaveBeenCalledTimes(1);
    expect(open.mock.calls[0]).toEqual([]);
  });
});

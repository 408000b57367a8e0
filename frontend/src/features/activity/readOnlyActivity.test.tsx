import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/preact';
import { ActivityView } from './ActivityView';
import { FakeTransport } from '../../test/fakeTransport';

// A read-only copy of damaged data: its ledger is read, verified and
// exported; clearing it (ClearLedger, a write Go refuses) is not offered.
function setup(readOnlyCopy: boolean) {
  const t = new FakeTransport({ ListLedger: () => [], VerifyLedger: () => ({ entries: 0, ok: true }), ExportLedger: () => '' }, 'browser');
  render(<ActivityView open transport={t} threads={[]} onClose={() => {}} onOpenCall={() => {}} readOnly={readOnlyCopy} />);
  return t;
}

describe('Activity in a read-only copy', () => {
  afterEach(cleanup);

  it('offers Verify and Export, not Clear', async () => {
    setup(true);
    await screen.findByRole('button', { name: /Verify/ });
    expect(screen.queryByRole('button', { name: 'Clear…' })).toBeNull();
  });

  it('offers Clear when it is no copy', async () => {
    setup(false);
    expect(await screen.findByRole('button', { name: 'Clear…' })).toBeTruthy();
  });
});

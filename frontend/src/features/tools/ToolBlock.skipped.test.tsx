import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/preact';
import { ToolBlock } from './ToolBlock';
import { REPLIED_IN_CHAT } from './ToolStatusChip';
import { TransportContext } from '../../transport';
import { FakeTransport } from '../../test/fakeTransport';
import type { ToolCallView } from '../../state/types';

function show(p: Partial<ToolCallView>) {
  const t: ToolCallView = { id: 'tc', name: 'write_file', args: '{}', argsComplete: true, messageId: 'm1', ...p };
  render(
    <TransportContext.Provider value={new FakeTransport({ ListMCPServers: () => [] })}>
      <ToolBlock tool={t} />
    </TransportContext.Provider>,
  );
}

describe('ToolBlock: an approval passed over by a chat reply', () => {
  it('TestSkippedByReplyIsBadgedSkipped: says "Skipped", not "Interrupted"', () => {
    show({ state: 'interrupted', result: REPLIED_IN_CHAT, isError: true });
    expect(screen.getByText('Skipped')).toBeTruthy();
    expect(screen.queryByText('Interrupted')).toBeNull();
  });

  it('a call stopped otherwise stays "Interrupted"', () => {
    show({ state: 'interrupted', result: 'Interrupted: the run was stopped.', isError: true });
    expect(screen.getByText('Interrupted')).toBeTruthy();
  });
});

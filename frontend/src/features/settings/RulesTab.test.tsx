import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { SettingsDialog } from './SettingsDialog';
import { FakeTransport } from '../../test/fakeTransport';
import { JunctureError } from '../../transport/errors';
import type { RuleView } from '../../transport/contract.gen';
import type { SettingsView } from '../../transport/contract';
import { change } from '../../test/change';

const VIEW = {
  settings: { baseUrl: '', apiKey: '', model: '', workspace: '/w', loopGuard: 25, theme: 'system', enableWriteTools: false, modelAcceptsImages: false },
  sources: {},
} as SettingsView;

const RULES: RuleView[] = [
  {
    id: 'r1', tool: 'run_command', scope: 'command-prefix', pattern: 'git status', createdAt: 1, duration: '1h',
    expiresAt: Date.now() + 3_600_000, uses: 3, lastUsedAt: Date.now() - 60_000,
    description: 'Allow run_command when the command starts with "git status"', refuses: 'git status && rm -rf ~',
  },
  {
    id: 'r2', tool: 'run_command', scope: 'command-prefix', pattern: 'rm -rf', createdAt: 2, effect: 'deny', reason: 'never delete',
    description: 'Never allow run_command when the command starts with "rm -rf"',
  },
];

function setup(extra: ConstructorParameters<typeof FakeTransport>[0] = {}, kind: 'desktop' | 'browser' = 'browser') {
  const t = new FakeTransport(
    {
      GetSettings: () => VIEW,
      ListRules: () => RULES,
      ListMCPServers: () => [],
      SetRuleDuration: () => null,
      AddRule: (r) => ({ ...r, id: 'r3' }),
      ImportRules: () => 2,
      ExportRules: () => '[]',
      ...extra,
    },
    kind,
  );
  render(<SettingsDialog open transport={t} status={null} onClose={() => {}} onSaved={() => {}} />);
  fireEvent.click(screen.getByRole('tab', { name: 'Rules' }));
  return t;
}

describe('Settings › Rules', () => {
  // The rule's words are Go's (tools.Describe, ListRules' description): the
  // window shows that sentence, the same one the ledger shows in Activity.
  it('TestRulesShowGoSentence: each rule reads as Go’s sentence, word for word', async () => {
    setup();
    for (const r of RULES) {
      const words = await screen.findByText(r.description);
      expect(words.textContent).toBe(r.description);
      expect(words.closest('li')!.className).toBe(r.effect === 'deny' ? 'is-deny' : '');
    }
  });

  it('lists each rule with its reach, end, last use and count; a Never rule with its reason', async () => {
    setup();
    const allow = (await screen.findByText(RULES[0]!.description)).closest('li')!;
    // An hour from now: a time today ("until 14:32"), or with its date after 23:00 ("until Dec 4, 00:18").
    expect(allow.textContent).toMatch(/until (\d|[A-Z][a-z]{2} \d)/);
    expect(allow.textContent).toContain('3 calls let through');
    expect(allow.textContent).toContain('Still asks for, e.g.: git status && rm -rf ~');
    const never = screen.getByText(RULES[1]!.description).closest('li')!;
    expect(never.textContent).toContain('Reason the model reads: “never delete”');
    expect(never.textContent).toContain('never used yet');
  });

  it('edits a rule’s duration (SetRuleDuration, counted from now)', async () => {
    const t = setup();
    const allow = (await screen.findByText(RULES[0]!.description)).closest('li')!;
    await act(async () => {
      change(within(allow).getByLabelText('How long'), { target: { value: 'today' } });
    });
    expect(t.callsOf('SetRuleDuration')).toEqual([['r1', 'today']]);
    expect(await screen.findByText('The rule’s new duration counts from now.')).toBeTruthy();
  });

  it('adds a Never rule with a reason and a duration', async () => {
    const t = setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Add a Never rule…' }));
    change(screen.getByLabelText('Value'), { target: { value: 'git push' } });
    change(screen.getByLabelText('Reason (the model reads it)'), { target: { value: 'ask me first' } });
    change(within(screen.getByRole('group', { name: 'Add a “Never” rule' })).getByLabelText('How long'), { target: { value: '1h' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Add Never rule' }));
    });
    expect(t.callsOf('AddRule')[0]![0]).toMatchObject({ tool: 'run_command', scope: 'command-prefix', pattern: 'git push', effect: 'deny' });
    expect(t.callsOf('AddRule')[0]![0]).toMatchObject({ reason: 'ask me first', duration: '1h' });
    expect(await screen.findByText('The Never rule was added.')).toBeTruthy();
  });

  it('imports a rules file, and says so; a refused import says nothing was imported', async () => {
    let refuse = false;
    const t = setup({
      ImportRules: () => {
        if (refuse) throw new JunctureError('invalid-argument', 'rule 2: unknown scope');
        return 2;
      },
    });
    const input = (await screen.findByLabelText('Rules file to import')) as HTMLInputElement;
    const file = new File(['[]'], 'rules.json', { type: 'application/json' });
    await act(async () => {
      change(input, { target: { files: [file] } });
    });
    await waitFor(() => expect(t.callsOf('ImportRules')).toEqual([['[]']]));
    expect(await screen.findByText(/Imported 2 rules/)).toBeTruthy();
    refuse = true;
    await act(async () => {
      change(input, { target: { files: [file] } });
    });
    expect(await screen.findByText(/Nothing was imported: rule 2: unknown scope/)).toBeTruthy();
  });

  it('exports through the native dialog in the desktop window', async () => {
    const t = setup({ SaveRulesExport: () => '/home/ada/juncture-rules.json' }, 'desktop');
    // Found before act: inside it Preact holds renders until it ends.
    const button = await screen.findByRole('button', { name: 'Export JSON…' });
    await act(async () => {
      fireEvent.click(button);
    });
    expect(t.callsOf('SaveRulesExport')).toEqual([[]]);
    expect(await screen.findByText('Saved to /home/ada/juncture-rules.json.')).toBeTruthy();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { SettingsDialog } from './SettingsDialog';
import { FakeTransport } from '../../test/fakeTransport';
import { JunctureError } from '../../transport/errors';
import { mcpConfigView, mcpServer, settingsView } from '../../test/builders';
import type { Settings, SettingsView } from '../../transport/contract';
import { change } from '../../test/change';

const VIEW: SettingsView = settingsView();

function setup(extra: ConstructorParameters<typeof FakeTransport>[0] = {}, view: SettingsView = VIEW) {
  const onClose = vi.fn();
  const t = new FakeTransport({
    GetSettings: () => view,
    ListRules: () => [
      { id: 'r1', tool: 'mcp:everything', scope: 'server', pattern: 'everything', createdAt: 1, description: 'Allow every tool of the server everything' },
      { id: 'r2', tool: 'everything__echo', scope: 'tool-identity', pattern: 'fp', createdAt: 2, description: 'Allow everything__echo while the server does not change it' },
      { id: 'r3', tool: 'read_file', scope: 'tool', createdAt: 3, description: 'Allow every read_file call' },
    ],
    ListMCPServers: () => [mcpServer('everything', [{ name: 'echo', title: 'Echo' }], { title: 'Everything' })],
    GetMCPConfig: () => mcpConfigView([{ name: 'everything', config: { command: 'npx' } }]),
    RevokePermissionRule: () => null,
    ...extra,
  });
  render(<SettingsDialog open transport={t} status={null} onClose={onClose} onSaved={() => {}} />);
  return Object.assign(t, { onClose });
}

/** Go's words for the rule r3 (ListRules' description). */
const READ_FILE = 'Allow every read_file call';

afterEach(() => {
  vi.useRealTimers();
  delete document.documentElement.dataset.theme;
});

/** The input a <label> names (getByLabelText would also find a section its heading labels). */
const input = (name: string) => {
  const el = screen.getAllByLabelText(name).find((e) => e instanceof HTMLInputElement);
  if (!el) throw new Error(`no input labelled ${name}`);
  return el as HTMLInputElement;
};


describe('SettingsDialog', () => {
  it('shows MCP rules, like every rule, in Go’s words', async () => {
    setup();
    fireEvent.click(screen.getByRole('tab', { name: 'Rules' }));
    expect(await screen.findByText('Allow every tool of the server everything')).toBeTruthy();
    const identity = screen.getByText('Allow everything__echo while the server does not change it').closest('li')!;
    expect(identity.textContent).toContain('Allow everything__echo while the server does not change it');
    expect(screen.getByText(READ_FILE).closest('li')!.textContent).toContain('Allow every read_file call');
  });

  it('has a "Tool servers (MCP)" tab that mounts the MCP section (saved at once: no Save button)', async () => {
    const t = setup();
    await screen.findAllByLabelText('Tool steps per turn (1–200)');
    expect(t.callsOf('GetMCPConfig')).toEqual([]);
    const tab = screen.getByRole('tab', { name: 'Tool servers (MCP)' });
    expect(tab.getAttribute('aria-selected')).toBe('false');
    fireEvent.click(tab);
    expect(tab.getAttribute('aria-selected')).toBe('true');
    const panel = screen.getByRole('tabpanel', { name: 'Tool servers (MCP)' });
    expect(within(panel).getByRole('heading', { name: 'Tool servers (MCP)' })).toBeTruthy();
    expect(await within(panel).findByRole('listitem', { name: 'everything' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    // Arrow keys move between tabs.
    fireEvent.keyDown(tab, { key: 'ArrowLeft' });
    expect(screen.getByRole('tab', { name: 'Rules' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Rules' }), { key: 'ArrowLeft' });
    expect(screen.getByRole('tab', { name: 'General' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
  });
});

describe('SettingsDialog: Test connection', () => {
  it('says a text that is not a URL is not one, marks the field, and both go once it is fixed', async () => {
    const t = setup({ TestConnection: () => ({ ok: true, message: 'Connected: 1 model(s) available.', models: ['llama3.1'] }) });
    await screen.findAllByLabelText('Tool steps per turn (1–200)');
    change(input('Base URL'), { target: { value: 'not a url' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const msg = 'This is not a URL: enter one like http://127.0.0.1:11434/v1';
    expect(await screen.findAllByText(`✗ ${msg}`)).toHaveLength(1);
    expect(screen.getByRole('alert').textContent).toBe(msg); // the field's own error
    expect(input('Base URL').getAttribute('aria-invalid')).toBe('true');
    expect(t.callsOf('TestConnection')).toEqual([]);
    change(input('Base URL'), { target: { value: 'http://127.0.0.1:11434/v1' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(`✗ ${msg}`)).toBeNull();
    expect(input('Base URL').getAttribute('aria-invalid')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    // Said once, in words: not "1 model(s) available. 1 model available."
    expect(await screen.findByText('✓ Connected: 1 model available.')).toBeTruthy();
    expect(document.body.textContent).not.toContain('model(s)');
  });

  it('asks for a URL when there is none, and counts models in the plural', async () => {
    setup({ TestConnection: () => ({ ok: true, message: '', models: ['a', 'b', 'c'] }) });
    await screen.findAllByLabelText('Tool steps per turn (1–200)');
    change(input('Base URL'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('✗ Enter the endpoint’s base URL first.')).toBeTruthy();
    change(input('Base URL'), { target: { value: 'https://api.openai.com/v1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('✓ Connected: 3 models available.')).toBeTruthy();
  });
});

describe('SettingsDialog: Save', () => {
  it('leaves untouched defaults as defaults: sends them empty, and a saved default still reads "default"', async () => {
    const saved: Settings[] = [];
    const t = setup({
      SaveSettings: (st) => {
        saved.push(st);
        // Go saves every field: each comes back "saved".
        return { settings: { ...VIEW.settings }, sources: { baseUrl: 'saved', model: 'saved', loopGuard: 'saved', theme: 'saved', workspace: 'saved' } };
      },
    }, { ...VIEW, settings: { ...VIEW.settings, workspace: '' }, sources: { baseUrl: 'detected', model: 'detected', loopGuard: 'default', workspace: 'default' } });
    await screen.findAllByLabelText('Tool steps per turn (1–200)');
    const loopRow = () => input('Tool steps per turn (1–200)').closest('.set-field')!;
    expect(loopRow().querySelector('.set-source')?.textContent).toBe('default');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    expect(saved[0]).toMatchObject({ baseUrl: '', model: '', workspace: '', apiKey: '', loopGuard: 25 });
    expect(loopRow().querySelector('.set-source')?.textContent).toBe('default');
    expect(t.callsOf('SaveSettings')).toHaveLength(1);
  });

  it('scrolls to an invalid value and puts the cursor in it; the error goes when fixed', async () => {
    const scrolled: Element[] = [];
    const orig = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    try {
      const t = setup({ SaveSettings: () => VIEW });
      await screen.findAllByLabelText('Tool steps per turn (1–200)');
      change(input('Tool steps per turn (1–200)'), { target: { value: '0' } });
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      const err = await screen.findByText('Enter a whole number from 1 to 200.');
      await waitFor(() => expect(scrolled).toContain(err.closest('.set-field')));
      expect(document.activeElement).toBe(input('Tool steps per turn (1–200)'));
      expect(t.callsOf('SaveSettings')).toEqual([]);
      expect(screen.getByText('Nothing was saved. Fix the fields marked in red.')).toBeTruthy();
      change(input('Tool steps per turn (1–200)'), { target: { value: '30' } });
      expect(screen.queryByText('Enter a whole number from 1 to 200.')).toBeNull();
      await waitFor(() => expect(screen.queryByText('Nothing was saved. Fix the fields marked in red.')).toBeNull());
    } finally {
      Element.prototype.scrollIntoView = orig;
    }
  });

  it('drops Go’s field error once that field is changed', async () => {
    setup({
      SaveSettings: () => {
        throw new JunctureError('invalid-settings', 'Some settings need a fix; nothing was saved.', {
          workspace: 'This path is a file, not a folder.',
        });
      },
    });
    await screen.findAllByLabelText('Tool steps per turn (1–200)');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This path is a file, not a folder.')).toBeTruthy();
    change(input('Workspace folder'), { target: { value: '/home/ada/projects' } });
    expect(screen.queryByText('This path is a file, not a folder.')).toBeNull();
  });
});

describe('SettingsDialog: the tool-steps number is typed freely, checked when left or saved', () => {
  const LOOP = 'Tool steps per turn (1–200)';
  /** The person leaves the field (focus goes elsewhere: blur, and the focusout preact/compat listens to). */
  const leave = (el: HTMLElement) => {
    act(() => el.focus());
    act(() => el.blur());
  };

  it('keeps a leading zero while typing; leaving the field shows the number it is, and Save sends it', async () => {
    const saved: Settings[] = [];
    setup({
      SaveSettings: (st) => {
        saved.push(st);
        return { ...VIEW, settings: { ...VIEW.settings, loopGuard: st.loopGuard } };
      },
    });
    await screen.findAllByLabelText(LOOP);
    change(input(LOOP), { target: { value: '0' } });
    change(input(LOOP), { target: { value: '05' } });
    expect(input(LOOP).value).toBe('05');
    // Nothing is wrong while typing: a 0 on the way to 05 is no error.
    expect(screen.queryByText('Enter a whole number from 1 to 200.')).toBeNull();
    leave(input(LOOP));
    expect(input(LOOP).value).toBe('5');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    expect(saved[0]).toMatchObject({ loopGuard: 5 });
  });

  it('saved without leaving the field: it shows the number saved', async () => {
    setup({ SaveSettings: (st) => ({ ...VIEW, settings: { ...VIEW.settings, loopGuard: st.loopGuard } }) });
    await screen.findAllByLabelText(LOOP);
    change(input(LOOP), { target: { value: '040' } });
    expect(input(LOOP).value).toBe('040');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    expect(input(LOOP).value).toBe('40');
  });

  it.each([
    { name: 'a fraction', typed: '2.50' },
    { name: 'nothing', typed: '' },
    { name: 'zero', typed: '0' },
    // JavaScript reads these as 16 and 5; a number box took them as nothing.
    { name: 'hexadecimal', typed: '0x10' },
    { name: 'binary', typed: '0b101' },
  ])('$name: kept as typed, and leaving the field says what is wrong; a fix takes the error away', async ({ typed }) => {
    const t = setup({ SaveSettings: () => VIEW });
    await screen.findAllByLabelText(LOOP);
    change(input(LOOP), { target: { value: typed } });
    expect(input(LOOP).value).toBe(typed);
    expect(screen.queryByText('Enter a whole number from 1 to 200.')).toBeNull();
    leave(input(LOOP));
    expect(input(LOOP).value).toBe(typed);
    expect(screen.getByText('Enter a whole number from 1 to 200.')).toBeTruthy();
    expect(input(LOOP).getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Nothing was saved. Fix the fields marked in red.')).toBeTruthy();
    expect(t.callsOf('SaveSettings')).toEqual([]);
    change(input(LOOP), { target: { value: '12' } });
    expect(screen.queryByText('Enter a whole number from 1 to 200.')).toBeNull();
  });

  it.each([
    { typed: '  7  ', shown: '7' },
    { typed: '+5', shown: '5' },
    { typed: '5e1', shown: '50' },
    // Full-width digits, as an input method for Japanese or Chinese types them.
    { typed: '１２', shown: '12' },
    { typed: '＋５', shown: '5' },
  ])('pasted $typed: read as the decimal number it writes, shown as $shown once left', async ({ typed, shown }) => {
    setup({ SaveSettings: () => VIEW });
    await screen.findAllByLabelText(LOOP);
    change(input(LOOP), { target: { value: typed } });
    leave(input(LOOP));
    expect(input(LOOP).value).toBe(shown);
    expect(screen.queryByText('Enter a whole number from 1 to 200.')).toBeNull();
  });

  /** The person opens another tab and comes back to General (General is unmounted meanwhile). */
  const visitRulesAndBack = async () => {
    fireEvent.click(screen.getByRole('tab', { name: 'Rules' }));
    await screen.findByText(READ_FILE);
    expect(screen.queryAllByLabelText(LOOP)).toEqual([]);
    fireEvent.click(screen.getByRole('tab', { name: 'General' }));
    await screen.findAllByLabelText(LOOP);
  };

  it.each([
    { name: 'a fraction with a trailing zero', typed: '2.50', left: true },
    { name: 'text that is no number', typed: '1e', left: true },
    { name: 'a leading zero, still being typed', typed: '05', left: false },
  ])('$name: another tab and back shows it as typed, with its error', async ({ typed, left }) => {
    setup({ SaveSettings: () => VIEW });
    await screen.findAllByLabelText(LOOP);
    change(input(LOOP), { target: { value: typed } });
    expect(input(LOOP).value).toBe(typed);
    if (left) leave(input(LOOP));
    const error = left ? 'Enter a whole number from 1 to 200.' : null;
    await visitRulesAndBack();
    expect(input(LOOP).value).toBe(typed);
    expect(screen.queryByText('Enter a whole number from 1 to 200.')?.textContent ?? null).toBe(error);
    expect(input(LOOP).getAttribute('aria-invalid')).toBe(left ? 'true' : null);
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
  });

  it('discarded, the typed text goes: opened again, the field shows the saved number', async () => {
    const onClose = vi.fn();
    const t = new FakeTransport({ GetSettings: () => VIEW, ListRules: () => [] });
    const { rerender } = render(<SettingsDialog open transport={t} status={null} onClose={onClose} onSaved={() => {}} />);
    await screen.findAllByLabelText(LOOP);
    change(input(LOOP), { target: { value: '1e' } });
    leave(input(LOOP));
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    fireEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    rerender(<SettingsDialog open={false} transport={t} status={null} onClose={onClose} onSaved={() => {}} />);
    rerender(<SettingsDialog open transport={t} status={null} onClose={onClose} onSaved={() => {}} />);
    await waitFor(() => expect(t.callsOf('GetSettings')).toHaveLength(2));
    await waitFor(() => expect(input(LOOP).value).toBe(String(VIEW.settings.loopGuard)));
    expect(screen.queryByText('Enter a whole number from 1 to 200.')).toBeNull();
  });
});

describe('SettingsDialog: theme, unsaved edits, revoke', () => {
  it('previews a theme at once and puts the saved one back on Close without saving', async () => {
    const t = setup();
    await screen.findAllByLabelText('Tool steps per turn (1–200)');
    fireEvent.click(screen.getByLabelText('Dark'));
    expect(document.documentElement.dataset.theme).toBe('dark');
    // Close with an unsaved change asks first.
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    const ask = screen.getByRole('alertdialog');
    expect(ask.textContent).toContain('You have unsaved changes.');
    expect(document.activeElement).toBe(within(ask).getByRole('button', { name: 'Keep editing' }));
    expect(t.onClose).not.toHaveBeenCalled();
    fireEvent.click(within(ask).getByRole('button', { name: 'Discard changes' }));
    expect(t.onClose).toHaveBeenCalledTimes(1);
    expect(document.documentElement.dataset.theme).toBeUndefined(); // "system" again
  });

  it('Esc asks too when something is unsaved; Esc again keeps editing; nothing unsaved closes at once', async () => {
    const t = setup();
    await screen.findAllByLabelText('Tool steps per turn (1–200)');
    await screen.findByText('Base URL');
    const dialog = document.querySelector('dialog')!;
    change(input('Model'), { target: { value: 'qwen' } });
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    expect(screen.getByRole('alertdialog')).toBeTruthy();
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(input('Model').value).toBe('qwen');
    expect(t.onClose).not.toHaveBeenCalled();
    change(input('Model'), { target: { value: 'llama3.1' } });
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    expect(t.onClose).toHaveBeenCalledTimes(1);
  });

  it('Revoke can be undone for 10 s; then the rule is revoked', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const t = setup();
    fireEvent.click(screen.getByRole('tab', { name: 'Rules' }));
    const row = (await screen.findByText(READ_FILE)).closest('li')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Revoke' }));
    const undone = screen.getByText('Revoked:').closest('li')!;
    expect(undone.textContent).toContain('Allow every read_file call');
    fireEvent.click(within(undone).getByRole('button', { name: 'Undo' }));
    expect(within(screen.getByText(READ_FILE).closest('li')!).getByRole('button', { name: 'Revoke' })).toBeTruthy();
    await act(async () => {
      vi.advanceTimersByTime(11_000);
    });
    expect(t.callsOf('RevokePermissionRule')).toEqual([]);
    fireEvent.click(within(screen.getByText(READ_FILE).closest('li')!).getByRole('button', { name: 'Revoke' }));
    await act(async () => {
      vi.advanceTimersByTime(9_000);
    });
    expect(t.callsOf('RevokePermissionRule')).toEqual([]);
    await act(async () => {
      vi.advanceTimersByTime(1_500);
    });
    expect(t.callsOf('RevokePermissionRule')).toEqual([['r3']]);
  });
});

describe('SettingsDialog: set by the environment', () => {
  it('explains the demo model instead of leaving dead fields', async () => {
    setup({}, {
      settings: { ...VIEW.settings, baseUrl: 'http://127.0.0.1:11435/v1', model: 'fake-model', apiKey: '••••' },
      sources: { baseUrl: 'environment', model: 'environment', apiKey: 'environment' },
    });
    expect(await screen.findByText('This is the offline demo.')).toBeTruthy();
    expect(input('Model').readOnly).toBe(true);
    expect(screen.getByText('Set by JUNCTURE_MODEL; change it there and restart Juncture.')).toBeTruthy();
    expect(screen.queryByLabelText('Endpoint')).toBeNull(); // the preset menu would do nothing
  });
});

describe('SettingsDialog: the tool-steps field steps with the arrow keys, as a number box did', () => {
  const LOOP = 'Tool steps per turn (1–200)';
  const key = (el: HTMLElement, k: string) => fireEvent.keyDown(el, { key: k });

  it('is a spin button from 1 to 200 whose ↑ and ↓ step by one, within the range', async () => {
    setup({ SaveSettings: () => VIEW });
    await screen.findAllByLabelText(LOOP);
    const box = input(LOOP);
    expect(box.getAttribute('role')).toBe('spinbutton');
    expect(box.getAttribute('aria-valuemin')).toBe('1');
    expect(box.getAttribute('aria-valuemax')).toBe('200');
    expect(box.getAttribute('aria-valuenow')).toBe(String(VIEW.settings.loopGuard));
    key(box, 'ArrowUp');
    expect(input(LOOP).value).toBe(String(VIEW.settings.loopGuard + 1));
    key(input(LOOP), 'ArrowDown');
    key(input(LOOP), 'ArrowDown');
    expect(input(LOOP).value).toBe(String(VIEW.settings.loopGuard - 1));
    change(input(LOOP), { target: { value: '200' } });
    key(input(LOOP), 'ArrowUp');
    expect(input(LOOP).value).toBe('200');
    change(input(LOOP), { target: { value: '1' } });
    key(input(LOOP), 'ArrowDown');
    expect(input(LOOP).value).toBe('1');
    // Text that is no whole number in range steps from the nearest end.
    change(input(LOOP), { target: { value: '1e' } });
    expect(input(LOOP).getAttribute('aria-valuenow')).toBeNull();
    key(input(LOOP), 'ArrowUp');
    expect(input(LOOP).value).toBe('1');
    change(input(LOOP), { target: { value: '999' } });
    key(input(LOOP), 'ArrowDown');
    expect(input(LOOP).value).toBe('200');
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
  });

  it('set by the environment, the field does not step: ↑ and ↓ change nothing and nothing is unsaved', async () => {
    setup({}, { ...VIEW, sources: { loopGuard: 'environment' } });
    await screen.findAllByLabelText(LOOP);
    expect(input(LOOP).readOnly).toBe(true);
    for (const k of ['ArrowUp', 'ArrowDown']) {
      key(input(LOOP), k);
      expect(input(LOOP).value).toBe(String(VIEW.settings.loopGuard));
    }
    expect(screen.queryByText('Unsaved changes')).toBeNull();
  });

  it('leaves ↑ and ↓ to an input method while it composes (they pick among its candidates)', async () => {
    setup({ SaveSettings: () => VIEW });
    await screen.findAllByLabelText(LOOP);
    change(input(LOOP), { target: { value: '12' } });
    for (const k of ['ArrowUp', 'ArrowDown']) {
      const taken = !fireEvent.keyDown(input(LOOP), { key: k, isComposing: true });
      expect(taken).toBe(false);
      expect(input(LOOP).value).toBe('12');
    }
  });
});

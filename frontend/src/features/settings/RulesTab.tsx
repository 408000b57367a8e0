// Settings › Rules: the rule list (PermissionRules) with its tools: a
// "Never" rule typed by the person, export and import as JSON.
import { useRef, useState } from 'react';
import type { Transport } from '../../transport';
import { toJunctureError } from '../../transport';
import type { RuleScope } from '../../transport/contract.gen';
import { downloadText } from '../../lib/download';
import { DURATION_LABELS, type RuleDuration } from '../approvals/ruleWords';
import { PermissionRules, type PermissionRulesState } from './PermissionRules';
import './RulesTab.css';
import { AlertLine } from '../../ui/AlertLine';

/** The scopes a person types a Never rule in, in words. */
const NEVER_SCOPES: readonly { scope: RuleScope; label: string; pattern?: string; arg?: boolean; glob?: boolean }[] = [
  { scope: 'command-prefix', label: 'a command that starts with', pattern: 'e.g. rm -rf' },
  { scope: 'command-glob', label: 'a command that matches (* is any text)', pattern: 'e.g. git push *' },
  { scope: 'tool', label: 'every call of the tool' },
  { scope: 'folder', label: 'files inside the folder', pattern: 'e.g. /home/ada/.ssh' },
  { scope: 'host', label: 'a page on the host', pattern: 'e.g. example.com' },
  { scope: 'arg-equals', label: 'when an argument is', pattern: 'the value', arg: true },
  { scope: 'arg-prefix', label: 'when an argument starts with', pattern: 'the start', arg: true },
  { scope: 'server-tools', label: 'tools of an MCP server named (* is any text)', pattern: 'the server’s name', glob: true },
];
const SETTINGS_DURATIONS: readonly RuleDuration[] = ['15m', '1h', 'today', 'forever'];

function NeverRuleForm({ id, transport, onAdded, onCancel }: { id: string; transport: Transport; onAdded: () => void; onCancel: () => void }) {
  const [tool, setTool] = useState('run_command');
  const [scope, setScope] = useState<RuleScope>('command-prefix');
  const [pattern, setPattern] = useState('');
  const [arg, setArg] = useState('');
  const [glob, setGlob] = useState('delete_*');
  const [reason, setReason] = useState('');
  const [duration, setDuration] = useState<RuleDuration>('forever');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const kind = NEVER_SCOPES.find((s) => s.scope === scope) ?? NEVER_SCOPES[0]!;
  const add = () => {
    setBusy(true);
    const server = scope === 'server-tools';
    transport
      .call('AddRule', {
        id: '',
        createdAt: 0,
        tool: server ? `mcp:${pattern.trim()}` : tool.trim(),
        scope,
        pattern: pattern.trim(),
        ...(kind.arg ? { arg: arg.trim() } : {}),
        ...(kind.glob ? { glob: glob.trim() } : {}),
        effect: 'deny',
        reason: reason.trim(),
        duration,
      })
      .then(() => {
        setError(null);
        onAdded();
      })
      .catch((e: unknown) => setError(toJunctureError(e).message))
      .finally(() => setBusy(false));
  };
  return (
    <fieldset className="set-never" aria-labelledby={`${id}-never-title`}>
      <legend id={`${id}-never-title`}>Add a “Never” rule</legend>
      {scope !== 'server-tools' && (
        <label>
          Tool
          <input type="text" value={tool} onChange={(e) => setTool(e.currentTarget.value)} className="mono" />
        </label>
      )}
      <label>
        Never allow
        <select aria-label="Never allow" value={scope} onChange={(e) => setScope(e.currentTarget.value as RuleScope)}>
          {NEVER_SCOPES.map((s) => (
            <option key={s.scope} value={s.scope}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      {kind.arg && (
        <label>
          Argument
          <input type="text" value={arg} onChange={(e) => setArg(e.currentTarget.value)} className="mono" placeholder="e.g. path" />
        </label>
      )}
      {kind.pattern && (
        <label>
          {kind.glob ? 'Server' : 'Value'}
          <input type="text" value={pattern} onChange={(e) => setPattern(e.currentTarget.value)} className="mono" placeholder={kind.pattern} />
        </label>
      )}
      {kind.glob && (
        <label>
          Tool names
          <input type="text" value={glob} onChange={(e) => setGlob(e.currentTarget.value)} className="mono" />
        </label>
      )}
      <label>
        Reason (the model reads it)
        <input type="text" value={reason} maxLength={2000} onChange={(e) => setReason(e.currentTarget.value)} placeholder="e.g. never delete anything" />
      </label>
      <label>
        How long
        <select aria-label="How long" value={duration} onChange={(e) => setDuration(e.currentTarget.value as RuleDuration)}>
          {SETTINGS_DURATIONS.map((d) => (
            <option key={d} value={d}>
              {DURATION_LABELS[d]}
            </option>
          ))}
        </select>
      </label>
      <AlertLine className="set-banner error" text={error} />
      <div className="set-never-actions">
        <button type="button" className="btn danger" disabled={busy} onClick={add}>
          Add Never rule
        </button>
        <button type="button" className="btn subtle" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </fieldset>
  );
}

/** A file's text (FileReader: File.text is missing from some webviews). */
function readText(f: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(typeof r.result === 'string' ? r.result : '');
    r.onerror = () => reject(r.error ?? new Error('the file could not be read'));
    r.readAsText(f);
  });
}

/** Settings → Rules; locked (a read-only copy of damaged data): listed and exported, not changed. */
export function RulesTab({ id, transport, state, locked = false }: { id: string; transport: Transport; state: PermissionRulesState; locked?: boolean | undefined }) {
  const [adding, setAdding] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const file = useRef<HTMLInputElement>(null);
  const fail = (what: string) => (e: unknown) => state.setError(`${what}: ${toJunctureError(e).message}`);

  const setDuration = (ruleId: string, d: string) => {
    transport
      .call('SetRuleDuration', ruleId, d)
      .then(() => {
        setNote('The rule’s new duration counts from now.');
        state.load();
      })
      .catch(fail('Could not change the duration'));
  };
  const exportRules = () => {
    // The desktop window saves through a native dialog; the browser downloads.
    const done =
      transport.kind === 'desktop'
        ? transport.call('SaveRulesExport').then((path) => (path ? setNote(`Saved to ${path}.`) : undefined))
        : transport.call('ExportRules').then((text) => downloadText('juncture-rules.json', text, 'application/json'));
    done.catch(fail('Could not export the rules'));
  };
  const importRules = (f: File) => {
    if (f.size > 1 << 20) {
      state.setError('Could not import the rules: the file is over 1 MiB.');
      return;
    }
    void readText(f)
      .then((text) => transport.call('ImportRules', text))
      .then((n) => {
        setNote(`Imported ${n} rule${n === 1 ? '' : 's'}; their durations count from now.`);
        state.setError(null);
        state.load();
      })
      .catch(fail('Nothing was imported'));
  };

  return (
    <PermissionRules id={id} state={state} onDuration={setDuration} locked={locked}>
      <div className="set-rules-tools">
        {!locked && (
          <button type="button" className="btn small" onClick={() => setAdding(true)} disabled={adding}>
            Add a Never rule…
          </button>
        )}
        <button type="button" className="btn small" onClick={exportRules}>
          Export JSON…
        </button>
        {!locked && (
          <button type="button" className="btn small" onClick={() => file.current?.click()}>
            Import JSON…
          </button>
        )}
        <input
          ref={file}
          type="file"
          accept="application/json,.json"
          hidden
          aria-label="Rules file to import"
          onChange={(e) => {
            const f = e.currentTarget.files?.[0];
            e.currentTarget.value = '';
            if (f) importRules(f);
          }}
        />
      </div>
      {note && (
        <p className="set-help" role="status">
          {note}
        </p>
      )}
      {adding && (
        <NeverRuleForm
          id={id}
          transport={transport}
          onAdded={() => {
            setAdding(false);
            setNote('The Never rule was added.');
            state.load();
          }}
          onCancel={() => setAdding(false)}
        />
      )}
    </PermissionRules>
  );
}

import { useId } from 'react';
import type { Transport } from '../../transport';
import { DEFAULT_PRESET_ID, modelsOf, type Endpoint, type Preset } from '../../transport/endpoints';
import { endpointsChanged, useEndpoints, usePresets } from '../../hooks/useEndpoints';
import { useMcpServers } from '../../hooks/useMcpServers';
import { EditorForm, ListEditor, useListEditor } from './ListEditor';
import './EndpointSettings.css';
import { AlertLine } from '../../ui/AlertLine';

/** Juncture's own tools, by the names the model sees (ask_user is always offered). */
export const BUILTIN_TOOLS: readonly { name: string; title: string }[] = [
  { name: 'list_files', title: 'List files' },
  { name: 'read_file', title: 'Read files' },
  { name: 'write_file', title: 'Write files' },
  { name: 'run_command', title: 'Run commands' },
  { name: 'copy_to_clipboard', title: 'Copy to the clipboard' },
  { name: 'open_url', title: 'Open web pages' },
];

/** How a preset reads in the list: where it runs and with which tools. */
export function presetSummary(p: Preset, endpoints: readonly Endpoint[]): string {
  const ep = p.endpointId ? (endpoints.find((e) => e.id === p.endpointId)?.name ?? `${p.endpointId} (not available)`) : 'Default endpoint';
  const model = p.model || 'its default model';
  const tools = p.tools === null ? 'every tool' : p.tools.length ? `${p.tools.length} ${p.tools.length === 1 ? 'tool' : 'tools'}` : 'no tools';
  return p.id === DEFAULT_PRESET_ID ? `Default endpoint and model · ${tools}` : `${ep} · ${model} · ${tools}`;
}

/**
 * Settings › Presets: named bundles of instructions, endpoint, model and
 * tools that a new chat starts from ("New chat from preset"). The default
 * is what New chat (Ctrl+N) uses. Shipped presets can be edited (the edit
 * is kept in their place) or deleted.
 */
/** Settings → Presets; locked (a read-only copy of damaged data): listed, not changed. */
export function PresetSettings({ transport, locked = false }: { transport: Transport; locked?: boolean | undefined }) {
  const id = useId();
  const { presets, error: loadError } = usePresets(transport);
  const { endpoints } = useEndpoints(transport);
  const catalog = useMcpServers(transport);
  const ed = useListEditor<Preset, Record<string, string>>();
  const { editing, errors } = ed;

  const toolChoices = [
    ...BUILTIN_TOOLS,
    ...[...catalog.tools.entries()].map(([name, t]) => ({ name, title: `${t.title} (${t.serverTitle})` })),
  ];
  for (const n of editing?.tools ?? []) if (!toolChoices.some((c) => c.name === n)) toolChoices.push({ name: n, title: n });

  const save = async () => {
    if (!editing) return;
    if (editing.id !== DEFAULT_PRESET_ID && !editing.name.trim()) {
      ed.invalid({ name: 'Give the preset a name.' });
      return;
    }
    await ed.save(
      async () => {
        await transport.call('SavePreset', editing);
        return endpointsChanged;
      },
      (err) => err.details ?? {},
    );
  };

  const remove = (p: Preset) => {
    ed.setConfirm(null);
    ed.act(() => transport.call('DeletePreset', p.id), endpointsChanged, (m) => `Could not delete ${p.name}: ${m}`);
  };

  const set = <K extends keyof Preset>(k: K, v: Preset[K]) => {
    ed.update((p) => ({ ...p, [k]: v }));
    if (errors[k]) ed.setErrors((e) => ({ ...e, [k]: '' }));
  };

  const endpoint = editing?.endpointId ? endpoints?.find((e) => e.id === editing.endpointId) : endpoints?.find((e) => e.isDefault);
  const isDefault = editing?.id === DEFAULT_PRESET_ID;

  const form = editing && (
    <EditorForm
      label={editing.id ? `Edit ${editing.name}` : 'Add a preset'}
      title={isDefault ? 'Default for new chats' : editing.id ? `Edit ${editing.name}` : 'Add a preset'}
      formError={ed.formError}
      saving={ed.saving}
      saveLabel="Save preset"
      onSave={() => void save()}
      onCancel={ed.cancel}
    >
      {!isDefault && (
        <div className={`set-field${errors.name ? ' has-error' : ''}`}>
          <label htmlFor={`${id}-name`}>Name</label>
          <input id={`${id}-name`} type="text" value={editing.name} onChange={(e) => set('name', e.currentTarget.value)} />
          <AlertLine className="set-error" text={errors.name} />
        </div>
      )}
      <div className="set-field">
        <label htmlFor={`${id}-instr`}>Instructions</label>
        <textarea
          id={`${id}-instr`}
          rows={5}
          value={editing.instructions}
          aria-describedby={`${id}-instr-help`}
          placeholder="What the model should always keep in mind in these chats"
          onChange={(e) => set('instructions', e.currentTarget.value)}
        />
        <p className="set-help" id={`${id}-instr-help`}>
          A new chat starts with these; each chat can change its own afterwards (Instructions, in its header).
        </p>
      </div>
      {isDefault ? (
        <p className="set-help">New chat (Ctrl+N) uses the default endpoint and model (Settings → General, or the endpoint marked default).</p>
      ) : (
        <>
          <div className={`set-field${errors.endpointId ? ' has-error' : ''}`}>
            <label htmlFor={`${id}-ep`}>Endpoint</label>
            <select id={`${id}-ep`} value={editing.endpointId} onChange={(e) => set('endpointId', e.currentTarget.value)}>
              <option value="">The default endpoint</option>
              {(endpoints ?? []).map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name}
                </option>
              ))}
              {editing.endpointId && !endpoints?.some((e) => e.id === editing.endpointId) && (
                <option value={editing.endpointId}>{editing.endpointId} (not available now)</option>
              )}
            </select>
            <AlertLine className="set-error" text={errors.endpointId} />
          </div>
          <div className="set-field">
            <label htmlFor={`${id}-model`}>Model</label>
            <input
              id={`${id}-model`}
              type="text"
              className="mono"
              list={`${id}-models`}
              value={editing.model}
              placeholder={endpoint?.defaultModel ? `The endpoint’s default (${endpoint.defaultModel})` : 'The endpoint’s default'}
              onChange={(e) => set('model', e.currentTarget.value)}
            />
            <datalist id={`${id}-models`}>
              {(endpoint ? modelsOf(endpoint) : []).map((m) => (
                <option key={m} value={m} />
              ))}
            </datalist>
          </div>
        </>
      )}
      <fieldset className="set-field set-radios">
        <legend>Tools</legend>
        <label className="set-check">
          <input type="radio" name={`${id}-tools`} checked={editing.tools === null} onChange={() => set('tools', null)} />
          Every tool that is enabled
        </label>
        <label className="set-check">
          <input type="radio" name={`${id}-tools`} checked={editing.tools !== null} onChange={() => set('tools', editing.tools ?? ['list_files', 'read_file'])} />
          Only these
        </label>
        {editing.tools !== null && (
          <div className="pre-tools" role="group" aria-label="Tools this preset offers">
            {toolChoices.map((t) => (
              <label key={t.name} className="set-check">
                <input
                  type="checkbox"
                  checked={editing.tools?.includes(t.name) ?? false}
                  onChange={(e) => {
                    const cur = editing.tools ?? [];
                    set('tools', e.currentTarget.checked ? [...cur, t.name] : cur.filter((x) => x !== t.name));
                  }}
                />
                {t.title}
              </label>
            ))}
          </div>
        )}
        <p className="set-help">The model can always ask you a question.</p>
      </fieldset>
    </EditorForm>
  );

  return (
    <ListEditor
      title="Presets"
      help={<p className="set-help">Start a chat from one with the menu next to New chat.</p>}
      loadError={loadError && `Could not load the presets: ${loadError}`}
      actionError={ed.actionError}
      items={presets}
      keyOf={(p) => p.id}
      nameOf={(p) => p.name}
      rowLabel={(p) => (p.id === DEFAULT_PRESET_ID ? 'Default for new chats' : p.name)}
      body={(p) => (
        <>
          <div className="ep-head">
            <span className="ep-name">{p.id === DEFAULT_PRESET_ID ? 'Default for new chats' : p.name}</span>
            {p.builtin && p.id !== DEFAULT_PRESET_ID && <span className="set-source">shipped</span>}
          </div>
          <div className="ep-meta">{presetSummary(p, endpoints ?? [])}</div>
          {p.instructions ? <p className="pre-instr">{p.instructions}</p> : <p className="pre-instr">No instructions.</p>}
        </>
      )}
      locked={locked}
      actions={(p) =>
        locked ? null : (
          <button
            type="button"
            className="btn small"
            aria-label={`Edit ${p.id === DEFAULT_PRESET_ID ? 'the default for new chats' : p.name}`}
            onClick={() => ed.edit({ ...p, tools: p.tools ? [...p.tools] : null })}
          >
            Edit
          </button>
        )
      }
      canDelete={(p) => p.id !== DEFAULT_PRESET_ID}
      deleteText={() => 'Chats made from it keep their instructions.'}
      onDelete={remove}
      confirm={ed.confirm}
      onConfirm={ed.setConfirm}
      editingKey={editing ? editing.id : null}
      form={form}
      addLabel="Add a preset"
      onAdd={() => ed.edit({ id: '', name: '', instructions: '', endpointId: '', model: '', tools: null, builtin: false })}
    />
  );
}

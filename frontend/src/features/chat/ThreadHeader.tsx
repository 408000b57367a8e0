import { memo, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { TransportContext, toJunctureError, type Transport } from '../../transport';
import type { Thread } from '../../transport/contract';
import { effectiveModel, type ThreadOptions, type ThreadOptionsInput } from '../../transport/endpoints';
import { useEndpoints, useModelLists, usePresets } from '../../hooks/useEndpoints';
import { toolsText } from '../sidebar/PresetMenu';
import { ModelPicker, type PickerChoice } from './ModelPicker';
import { InstructionsEditor } from './InstructionsEditor';
import './ThreadHeader.css';

export interface ThreadHeaderProps {
  /** The open thread (null: a new chat not saved yet; a change here creates it). */
  threadId: string | null;
  /** Its options as GetThread read them (thread.options). */
  options: ThreadOptions | undefined;
  /** A change made on a new chat created this thread: open it. */
  onThreadCreated: (t: Thread) => void;
  /** The thread's options changed: reload it. */
  onChanged?: () => void;
  /** The thread's usage total (tokens, cost), shown as given. */
  usageTotal?: ReactNode;
  /** Defaults to the TransportContext's. */
  transport?: Transport | null;
  /** A read-only copy of damaged data: the model and instructions are shown, not changed. */
  readOnly?: boolean | undefined;
}

type Open = 'model' | 'instructions' | null;

/**
 * The thread's own controls in the chat header: the model it runs with (a
 * button opening the model picker), its instructions, and its usage total.
 * A change applies from the thread's next model call.
 */
// Memoized: the chat view renders once per frame while an answer streams,
// and the header changes only with the thread's options and usage.
export const ThreadHeader = memo(function ThreadHeader({ threadId, options, onThreadCreated, onChanged, usageTotal, transport: given, readOnly = false }: ThreadHeaderProps) {
  const ctxTransport = useContext(TransportContext);
  const transport = given === undefined ? ctxTransport : given;
  const { endpoints, refresh } = useEndpoints(transport);
  const [open, setOpen] = useState<Open>(null);
  const [error, setError] = useState<string | null>(null);
  // What SetThreadOptions answered, until the reloaded thread says the same.
  const [local, setLocal] = useState<{ threadId: string; options: ThreadOptions } | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const modelBtn = useRef<HTMLButtonElement>(null);
  const instrBtn = useRef<HTMLButtonElement>(null);

  const opts = local && local.threadId === threadId ? local.options : options;
  const { presets } = usePresets(opts?.presetId ? transport : null);
  const preset = opts?.presetId ? presets?.find((p) => p.id === opts.presetId) : undefined;
  const presetName = opts?.presetId ? (preset?.name ?? opts.presetId) : '';
  const eff = effectiveModel(opts, endpoints ?? []);
  const lists = useModelLists(
    transport,
    (endpoints ?? []).map((e) => e.id),
    open === 'model',
  );

  useEffect(() => {
    setOpen(null);
    setError(null);
  }, [threadId]);

  // A click outside closes what is open.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (e.target instanceof Node && !rootRef.current?.contains(e.target)) setOpen(null);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const close = (focus: 'model' | 'instructions') => {
    setOpen(null);
    requestAnimationFrame(() => (focus === 'model' ? modelBtn : instrBtn).current?.focus());
  };

  const apply = async (input: ThreadOptionsInput) => {
    if (!transport) throw new Error('Juncture is not connected.');
    let id = threadId;
    if (!id) {
      const t = await transport.call('NewThread', '');
      onThreadCreated(t);
      id = t.id;
    }
    const o = await transport.call('SetThreadOptions', id, input);
    setLocal({ threadId: id, options: o });
    onChanged?.();
  };

  const pick = (c: PickerChoice) => {
    close('model');
    setError(null);
    apply({ endpointId: c.endpointId, model: c.model }).catch((e: unknown) => setError(`Could not change the model: ${toJunctureError(e).message}`));
  };

  const endpointName = eff.endpoint?.name ?? '';
  const model = eff.model || (endpoints && !endpoints.length ? 'No model configured' : eff.endpoint ? 'Choose a model' : '…');
  const instructions = opts?.systemPrompt ?? '';
  const current: PickerChoice = { endpointId: opts?.endpointId ?? '', model: opts?.model ?? '' };

  return (
    <div className="thead" ref={rootRef}>
      {eff.fellBack && (
        <span className="thead-warn" role="status" title={`This chat’s endpoint (${opts?.endpointId}) was deleted.`}>
          Endpoint deleted · using the default
        </span>
      )}
      {usageTotal !== undefined && usageTotal !== null && usageTotal !== false && <span className="thead-usage">{usageTotal}</span>}
      {presetName && (
        <span
          className="thead-preset"
          role="note"
          aria-label={`Started from the preset ${presetName}; ${toolsText(opts?.tools)}`}
          title={`Started from the preset “${presetName}” · ${toolsText(opts?.tools)}`}
        >
          <span className="thead-preset-name">{presetName}</span>
          <span className="thead-preset-tools">{opts?.tools ? `${opts.tools.length} tool${opts.tools.length === 1 ? '' : 's'}` : 'all tools'}</span>
        </span>
      )}
      <div className="thead-anchor">
        <button
          ref={instrBtn}
          type="button"
          className={`thead-btn thead-instr${instructions ? ' is-set' : ''}`}
          aria-label={instructions ? 'Instructions (set)' : 'Instructions'}
          aria-haspopup="dialog"
          aria-expanded={open === 'instructions'}
          title={instructions ? `Instructions: ${instructions.slice(0, 200)}` : 'Give this chat instructions'}
          onClick={() => setOpen((o) => (o === 'instructions' ? null : 'instructions'))}
        >
          Instructions
          {instructions && <span className="thead-dot" aria-hidden="true" />}
        </button>
        {open === 'instructions' && (
          <InstructionsEditor
            initial={instructions}
            readOnly={readOnly}
            onClose={() => close('instructions')}
            onSave={(text) => apply({ systemPrompt: text })}
          />
        )}
      </div>
      <div className="thead-anchor">
        <button
          ref={modelBtn}
          type="button"
          className="thead-btn thead-model"
          aria-haspopup="dialog"
          aria-expanded={open === 'model'}
          disabled={readOnly}
          // The name holds the words shown (model, endpoint) in their order (WCAG 2.5.3).
          aria-label={`Model: ${model}${endpointName ? ` ${endpointName}` : ''}${readOnly ? '' : '. Change the model'}`}
          title={eff.endpoint ? `${eff.endpoint.name} · ${eff.endpoint.baseUrl}` : undefined}
          onClick={() => {
            if (open !== 'model') refresh(); // endpoints saved elsewhere (another window, the API) show too
            setOpen((o) => (o === 'model' ? null : 'model'));
          }}
        >
          <span className="thead-model-name mono">{model}</span>
          {/* A space between the words, for the accessible-name check (not drawn in the flex row). */}
          {endpointName && ' '}
          {endpointName && <span className="thead-endpoint">{endpointName}</span>}
          <span className="thead-caret" aria-hidden="true">
            ▾
          </span>
        </button>
        {open === 'model' && (
          <ModelPicker endpoints={endpoints ?? []} lists={lists} current={current} onPick={pick} onClose={() => close('model')} />
        )}
      </div>
      {error && (
        <span className="thead-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
});

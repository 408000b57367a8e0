import { memo } from 'react';
import type { ToolCallView } from '../state/types';
import { argSummary, prettyJson } from '../lib/format';
import { ToolStatusChip } from './ToolStatusChip';
import { IconTool } from './icons';
import './ToolBlock.css';

function chipState(t: ToolCallView) {
  if (t.state) return t.state;
  if (!t.argsComplete) return 'preparing' as const;
  if (t.result !== undefined) return t.isError ? ('failed' as const) : ('done' as const);
  return 'requested' as const;
}

/** One tool call: name, pretty arguments, live status and a collapsible result. */
export const ToolBlock = memo(function ToolBlock({ tool }: { tool: ToolCallView }) {
  const summary = tool.argsComplete ? argSummary(tool.args) : '';
  const args = tool.argsComplete ? prettyJson(tool.args) : tool.args;
  const state = chipState(tool);
  return (
    <details className={`tool-block state-${state}`}>
      <summary>
        <span className="tool-icon">
          <IconTool />
        </span>
        <span className="tool-name">{tool.name || 'tool'}</span>
        {summary && <span className="tool-summary mono">{summary}</span>}
        <ToolStatusChip state={state} />
      </summary>
      <div className="tool-body">
        <div className="tool-section-label">Arguments</div>
        <pre className="tool-pre mono">{args || '{}'}</pre>
        {tool.result !== undefined && (
          <details className="tool-result" open={tool.isError}>
            <summary>{tool.isError ? 'Error' : 'Result'}</summary>
            <pre className={`tool-pre mono ${tool.isError ? 'is-error' : ''}`}>{tool.result || '(empty)'}</pre>
          </details>
        )}
      </div>
    </details>
  );
});

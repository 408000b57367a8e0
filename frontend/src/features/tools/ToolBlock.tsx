import { memo, useContext, useState } from 'react';
import type { ToolCallView } from '../../state/types';
import type { PermissionRule } from '../../transport/contract';
import { argSummary, prettyJson } from '../../lib/format';
import { TransportContext } from '../../transport';
import { ReadOnlyCopyContext } from '../../lib/readOnlyCopy';
import { useMcpServers } from '../../hooks/useMcpServers';
import { ToolStatusChip, skippedByReply } from './ToolStatusChip';
import { ToolProgressBar } from './ToolProgress';
import { ToolParts } from './ToolParts';
import { noteLiveCall } from '../mcp-apps/AppView';
import { IconTool } from '../../ui/icons';
import './ToolBlock.css';

function chipState(t: ToolCallView) {
  if (skippedByReply(t.state, t.result)) return 'skipped' as const;
  if (t.state) return t.state;
  if (!t.argsComplete) return 'preparing' as const;
  if (t.result !== undefined) return t.isError ? ('failed' as const) : ('done' as const);
  return 'requested' as const;
}

/**
 * One tool call: name (an MCP tool's own title, with its server's), pretty
 * arguments, live status and progress, a collapsible result and what the
 * result holds besides text (images, links, structured data).
 */
export const ToolBlock = memo(function ToolBlock({ tool, threadId, live }: { tool: ToolCallView; threadId?: string | undefined; live?: boolean }) {
  const transport = useContext(TransportContext);
  const mcp = useMcpServers(transport).tools.get(tool.name);
  const summary = tool.argsComplete ? argSummary(tool.args) : '';
  const args = tool.argsComplete ? prettyJson(tool.args) : tool.args;
  const state = chipState(tool);
  const title = mcp?.title || tool.name || 'tool';
  const showProgress = state === 'running' && tool.progress;
  if (live || tool.result === undefined) noteLiveCall(tool.id); // its MCP App view may start by itself
  return (
    <div className={`tool-block state-${state}`}>
      <details className="tool-details">
        <summary>
          <span className="tool-icon">
            <IconTool />
          </span>
          <span className="tool-name" title={mcp ? tool.name : undefined}>
            {title}
          </span>
          {mcp && <span className="tool-server">{mcp.serverTitle}</span>}
          {summary && <span className="tool-summary mono">{summary}</span>}
          {tool.edited && (
            <span className="tool-edited" title="You edited the arguments before allowing the call: this is what ran">
              edited
            </span>
          )}
          <ToolStatusChip state={state} />
        </summary>
        <div className="tool-body">
          <div className="tool-section-label">{tool.edited ? 'Arguments (as you edited them: what ran)' : 'Arguments'}</div>
          <pre className="tool-pre mono">{args || '{}'}</pre>
          {tool.result !== undefined && (
            <details className="tool-result" open={tool.isError}>
              <summary>{tool.isError ? 'Error' : 'Result'}</summary>
              <pre className={`tool-pre mono ${tool.isError ? 'is-error' : ''}`}>{tool.result || '(empty)'}</pre>
            </details>
          )}
        </div>
      </details>
      {tool.allowedBy && <AllowedByRule rule={tool.allowedBy} />}
      {showProgress && tool.progress && <ToolProgressBar progress={tool.progress} label={`Progress of ${title}`} />}
      {tool.parts && tool.parts.length > 0 && <ToolParts parts={tool.parts} app={{ threadId, tool }} />}
    </div>
  );
});

/** "Allowed by your rule · Revoke": a call a remembered rule let through. */
function AllowedByRule({ rule }: { rule: PermissionRule }) {
  const transport = useContext(TransportContext);
  const readOnlyCopy = useContext(ReadOnlyCopyContext); // its rules cannot change there
  const [state, setState] = useState<'idle' | 'revoking' | 'revoked' | 'error'>('idle');
  const revoke = () => {
    if (!transport) return;
    setState('revoking');
    transport.call('RevokePermissionRule', rule.id).then(
      () => setState('revoked'),
      () => setState('error'),
    );
  };
  return (
    <div className="tool-allowed">
      {state === 'revoked' ? (
        <span>Rule revoked: calls like this ask again.</span>
      ) : (
        <>
          <span>Allowed by your rule ({ruleText(rule)})</span>
          {!readOnlyCopy && (
            <>
              <span aria-hidden="true"> · </span>
              <button type="button" className="tool-allowed-revoke" onClick={revoke} disabled={state === 'revoking'}>
                Revoke
              </button>
            </>
          )}
          {state === 'error' && <span role="alert"> Could not revoke it; try Settings.</span>}
        </>
      )}
    </div>
  );
}

function ruleText(r: PermissionRule): string {
  switch (r.scope) {
    case 'thread':
      return `${r.tool} in this chat`;
    case 'file':
      return `${r.tool} on ${r.pattern ?? 'this file'}`;
    case 'folder':
      return `${r.tool} in ${r.pattern ?? 'this folder'}`;
    case 'command-prefix':
      return `commands starting with ${r.pattern ?? ''}`;
    case 'server':
      return `every tool of ${r.pattern ?? 'this server'}`;
    default:
      return `every ${r.tool} call`;
  }
}

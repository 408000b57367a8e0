import './McpOffers.css';
import { useContext, useEffect, useId, useState } from 'react';
import { TransportContext, toJunctureError } from '../../transport';
import { LOG_LEVELS } from '../../transport/mcpOffers';

/** The least severe log message a server sends (logging/setLevel); saved, and sent again at each start. */
export function LogLevelSelect({ server }: { server: string }) {
  const transport = useContext(TransportContext);
  const id = useId();
  const [level, setLevel] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!transport) return;
    let live = true;
    transport.call('MCPLogLevels').then(
      (l) => live && setLevel(l[server] ?? ''),
      () => live && setLevel(''),
    );
    return () => {
      live = false;
    };
  }, [transport, server]);
  if (!transport || level === null) return null;
  return (
    <span className="mcp-log-level">
      <label htmlFor={id}>Log level</label>{' '}
      <select
        id={id}
        value={level}
        onChange={(e) => {
          const next = e.currentTarget.value;
          setLevel(next);
          transport.call('SetMCPLogLevel', server, next).then(
            () => setError(null),
            (err: unknown) => setError(toJunctureError(err).message),
          );
        }}
      >
        <option value="">The server's default</option>
        {LOG_LEVELS.map((l) => (
          <option key={l} value={l}>
            {l}
          </option>
        ))}
      </select>
      {error && (
        <span className="set-error" role="alert">
          {' '}
          {error}
        </span>
      )}
    </span>
  );
}

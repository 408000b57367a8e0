-- Schema v4: tool results that hold more than text, and what Juncture
-- remembers about MCP tools.
--
-- messages.parts is a tool result's parts (images, links, structured
-- content, embedded resources) as a JSON array; NULL when there are none,
-- which is every row written before.
--
-- mcp_tool_pins keeps, per MCP server and tool, whether the tool said it
-- was read-only the first time Juncture saw it (trust on first use: a
-- server cannot later make a tool "run without asking" by saying so).

ALTER TABLE messages ADD COLUMN parts TEXT;

CREATE TABLE mcp_tool_pins (
    server     TEXT    NOT NULL,
    tool       TEXT    NOT NULL,
    read_only  INTEGER NOT NULL,
    first_seen INTEGER NOT NULL,
    PRIMARY KEY (server, tool)
);

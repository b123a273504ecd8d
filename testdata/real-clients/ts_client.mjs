// The recorded TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, protocol
// 2025-11-25): connects through proxy.py to ts_server.mjs and makes tool calls without
// `_meta`, with a progress token (the SDK's own), and with trace context and a vendor key.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [prefix] = process.argv.slice(2);
const here = new URL(".", import.meta.url).pathname;
const transport = new StdioClientTransport({
  command: "python3",
  args: [`${here}proxy.py`, prefix, "--", process.execPath, `${here}ts_server.mjs`],
});
const client = new Client({ name: "sealkit-capture-client", version: "0.1.0" });
await client.connect(transport);
await client.listTools();
await client.callTool({ name: "query", arguments: { sql: "select 1", limit: 5 } });
await client.callTool({ name: "query", arguments: { sql: "select 2" } }, undefined, {
  onprogress: () => {},
});
await client.callTool({
  name: "query",
  arguments: { sql: "select 3" },
  _meta: {
    traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    "com.example/run": { attempt: 2 },
  },
});
await client.close();

// The recorded TypeScript SDK server (@modelcontextprotocol/sdk 1.32.2, McpServer over
// stdio): one tool with a string and a number argument.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "sealkit-capture-server", version: "0.1.0" });
server.registerTool(
  "query",
  { description: "Run a read-only query.", inputSchema: { sql: z.string(), limit: z.number().optional() } },
  async ({ sql, limit }) => ({ content: [{ type: "text", text: `${sql} limit ${limit ?? 10}` }] }),
);
await server.connect(new StdioServerTransport());

#!/usr/bin/env python3
"""The recorded Python SDK client (mcp 2.3.0): connects through proxy.py to py_server.py,
in `mode` auto (server/discover, 2026-07-28) or legacy (initialize), and makes tool calls
with per-request `_meta` (client info and capabilities are stamped by the SDK; log level,
progress token, trace context, baggage and a vendor key are added here) and one
input-required round trip (requestState / inputResponses)."""
import sys

import anyio

import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters


async def elicit(context, params):
    return types.ElicitResult(action="accept", content={"ok": True})


async def main(mode, prefix):
    here = sys.path[0]
    params = StdioServerParameters(
        command=sys.executable,
        args=[f"{here}/proxy.py", prefix, "--", sys.executable, f"{here}/py_server.py"],
    )
    async with Client(
        params,
        mode=mode,
        log_level="info",
        client_info=types.Implementation(name="sealkit-capture-client", version="0.1.0"),
        elicitation_callback=elicit,
    ) as client:
        await client.list_tools()
        meta = {
            "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "tracestate": "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE",
            "baggage": "userId=alice,serverNode=DF%2028",
            "com.example/run": {"attempt": 1, "tags": ["a", "b"]},
        }
        await client.call_tool("query", {"sql": "select 1", "limit": 5}, meta=meta)
        await client.call_tool("query", {"sql": "select 2"}, progress_callback=lambda *a: None)
        await client.call_tool("drop_table", {"table": "t"})


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2])

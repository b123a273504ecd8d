#!/usr/bin/env python3
"""The recorded Python SDK server (mcp 2.3.0 `MCPServer` over stdio): one plain tool, one
tool that asks the client a question (an input-required round trip on 2026-07-28)."""
from typing import Annotated

from pydantic import BaseModel

from mcp.server.mcpserver import Context, Elicit, MCPServer, Resolve

server = MCPServer("sealkit-capture-server")


class Confirm(BaseModel):
    ok: bool


@server.tool()
def query(sql: str, limit: int = 10) -> str:
    """Run a read-only query."""
    return f"{sql} limit {limit}"


def ask_confirm(table: str) -> Elicit[Confirm]:
    return Elicit(f"drop {table}?", Confirm)


@server.tool()
def drop_table(table: str, confirm: Annotated[Confirm, Resolve(ask_confirm)], ctx: Context) -> str:
    """Drop a table after the user confirms."""
    return f"dropped {table}" if confirm.ok else "kept"


if __name__ == "__main__":
    server.run("stdio")

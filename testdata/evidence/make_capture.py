#!/usr/bin/env python3
"""Writes annotated.capture (see PROVENANCE.md): the request frames of the bundled sessions
L and M, byte for byte, with the responses a server would write, in the shapes the MCP SDKs
write them, carrying trust annotations whose evidenceRef objects are the ones
`sealkit evidence ref` prints for the bundled record_version 3 receipts.

Usage: python3 make_capture.py REFS.jsonl > annotated.capture
where REFS.jsonl is `sealkit evidence ref --format jsonl --receipt-key KEY RECEIPT...` over
testdata/receipts/legacy-vs-current/new/receipts/receipt-*.json. Python 3, no packages.
"""
import json
import sys

KEY = "io.modelcontextprotocol/trust-annotations"
FRAMES = "../receipts/legacy-vs-current/frames/"

refs = {}
for line in open(sys.argv[1], encoding="utf-8"):
    record = json.loads(line)
    refs[record["evidenceRef"]["ref"]] = record["evidenceRef"]


def ref(prefix):
    (name,) = [n for n in refs if n.startswith(prefix)]
    return refs[name]


def requests(session):
    with open(FRAMES + f"session-{session}.capture", "rb") as f:
        return f.read().split(b"\n")[:-1]


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


out = []
L = requests("L")
M = requests("M")

# Session L: TypeScript SDK 1.32.2 (`McpServer`): JSON.stringify of {result, jsonrpc, id}.
def ts(id, result):
    return compact({"result": result, "jsonrpc": "2.0", "id": id})

out.append(L[0])  # initialize
out.append(ts(0, {"protocolVersion": "2025-06-18", "capabilities": {"tools": {"listChanged": True}},
                  "serverInfo": {"name": "example-db-server", "version": "0.1.0"}}))
out.append(L[1])  # id 1 docs.read: ALLOW, released (receipt L1)
out.append(ts(1, {"content": [{"type": "text", "text": "# Example\n"}],
                  "_meta": {KEY: {"sensitive": False,
                                  "evidenceRef": ref("receipt-00000000000000000000-1032")}}}))
out.append(L[2])  # id 2 db.execute: BLOCK (receipt L2), no response until approved
out.append(L[3])  # id 2 again: ALLOW by approval, released (receipt L3)
out.append(ts(2, {"content": [{"type": "text", "text": "dropped table users"}],
                  "_meta": {KEY: {"sensitive": True,
                                  "evidenceRef": ref("receipt-00000000000000000002-460d")}}}))
out.append(L[4])  # id 3: BLOCK (receipt L4)
# id 4 (receipt L5) is left out: its uppercase traceparent is refused by the current rules,
# so it has no identity a receipt could be bound to (tests/it/evidence_cli.rs covers that).

# Session M: Python SDK 2.3.0 (`MCPServer`, 2026-07-28): {jsonrpc, id, result}, with
# resultType and the server's own _meta key, as py-2026-07-28.server.jsonl shows them.
SERVER_INFO = {"io.modelcontextprotocol/serverInfo": {"name": "example-db-server", "version": ""}}


def py(id, text, annotation):
    meta = dict(SERVER_INFO)
    meta[KEY] = annotation
    return compact({"jsonrpc": "2.0", "id": id,
                    "result": {"content": [{"text": text, "type": "text"}], "isError": False,
                               "resultType": "complete", "_meta": meta}})

out.append(M[0])  # server/discover
out.append(compact({"jsonrpc": "2.0", "id": 0, "result": {
    "cacheScope": "private", "capabilities": {"tools": {"listChanged": True}},
    "resultType": "complete", "supportedVersions": ["2026-07-28"], "ttlMs": 0,
    "_meta": SERVER_INFO}}))
out.append(M[1])  # call-1 docs.read: ALLOW, released (receipt M1)
out.append(py("call-1", "# Changelog\n",
              {"sensitive": False, "evidenceRef": ref("receipt-00000000000000000000-66c0")}))
out.append(M[2])  # call-2: BLOCK (M2)
out.append(M[3])  # call-2 again: ALLOW by approval (M3)
out.append(py("call-2", "dropped table users",
              {"sensitive": True, "evidenceRef": ref("receipt-00000000000000000002-120d")}))
out.append(M[4])  # call-3: BLOCK (M4)
out.append(M[5])  # call-4 with requestState / inputResponses: BLOCK (M5)
out.append(M[6])  # call-4 again: ALLOW (M6); an array of references
out.append(py("call-4", "truncated table sessions",
              {"sensitive": True, "evidenceRef": [ref("receipt-00000000000000000005-16c0")]}))
out.append(M[7])  # call-5: BLOCK (M7)
out.append(M[8])  # call-5 again: BLOCK (M8)

sys.stdout.buffer.write(b"".join(frame + b"\n" for frame in out))

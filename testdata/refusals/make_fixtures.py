#!/usr/bin/env python3
"""Writes the single-frame refusal fixtures of this directory (run from it; Python 3, no
packages). Each file is `<expected code>--<what>[.era-<era>].frame`: one LF-terminated frame
that `sealkit target` refuses with that code (under `--era <era>` when named). The tests
read the files; they never run this script."""

MODERN = '"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}'
PV = "io.modelcontextprotocol/protocolVersion"
CC = "io.modelcontextprotocol/clientCapabilities"


def call_args(args, extra=""):
    return '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"db.execute","action":"write","arguments":%s%s}}' % (args, extra)


def call_meta(meta):
    return call_args("{}", ',"_meta":' + meta)


def modern(extra):
    return call_meta("{" + MODERN + "," + extra + "}")


def deep(n):
    return '{"d":' + "[" * n + "1" + "]" * n + "}"


F = {
    # Raw frame checks, Seal's wire guards, lexical caps, parse.
    "invalid-utf8--latin1-byte": call_args('{"s":"caf\udce9"}'),
    "exponent-too-long--args": call_args('{"n":1e1234567}'),
    "duplicate-key--args": call_args('{"a":1,"a":2}'),
    "duplicate-key--meta-member-of-params": call_args("{}", ',"_meta":{},"_meta":{}'),
    "duplicate-key--member-of-meta": call_meta('{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01","traceparent":"x"}'),
    "duplicate-key--nested-in-meta": call_meta('{"vendor.example/k":{"a":{"b":1,"b":2}}}'),
    "duplicate-key--before-invalid-value": call_meta('{"p":1,"p":2,"progressToken":[1]}'),
    "escaped-key--args": call_args('{"\\u0061":1}'),
    "escaped-key--meta": call_meta('{"\\u0074raceparent":"x"}'),
    "unbalanced-bracket--args": call_args('{"a":1}}'),
    "nfd-equal-keys--args": call_args('{"\u00e9":1,"e\u0301":2}'),
    "too-many-digits--args": call_args('{"n":9999999999999999999}'),
    "number-not-binary64--args": call_args('{"n":0.10000000000000001}'),
    "lone-surrogate--args": call_args('{"s":"\\ud800"}'),
    "nesting-too-deep--args": call_args(deep(130)),
    "json-depth-exceeded--args": call_args(deep(70)),
    "json-string-too-long--args": call_args('{"s":"%s"}' % ("x" * (256 * 1024 + 1))),
    "json-collection-too-large--args": call_args('{"a":[%s]}' % ",".join(["0"] * 4097)),
    "parse-error--args": call_args('{"a":tru}'),
    # JSON-RPC and tools/call shape.
    "not-an-object--batch": '[{"jsonrpc":"2.0","id":1,"method":"tools/call"}]',
    "not-an-object--scalar": "1",
    "missing-method--bare-object": '{"m":1}',
    "invalid-jsonrpc-version--absent": '{"method":"tools/call","params":{"name":"t","action":"run","arguments":{}}}',
    "invalid-jsonrpc-version--one": '{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"t"}}',
    "invalid-method--number": '{"jsonrpc":"2.0","id":1,"method":7}',
    "missing-id--notification": '{"jsonrpc":"2.0","method":"tools/call","params":{"name":"t"}}',
    "invalid-id--null": '{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"t"}}',
    "params-not-object--array": '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[]}',
    "invalid-tool-name--empty": '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":""}}',
    "arguments-not-object--array": call_args("[1]"),
    # Era and _meta shape.
    "meta-required--absent.era-2026-07-28": call_args("{}"),
    "meta-not-object--null": call_meta("null"),
    "meta-not-object--array": call_meta("[]"),
    "missing-protocol-version--caps-only": call_meta('{"%s":{}}' % CC),
    "invalid-protocol-version--number": call_meta('{"%s":20260728}' % PV),
    "invalid-protocol-version--number.era-legacy": call_meta('{"%s":20260728,"%s":{}}' % (PV, CC)),
    "invalid-client-capabilities--string.era-legacy": call_meta('{"%s":"x"}' % CC),
    "invalid-client-capabilities--true": call_meta('{"%s":"2026-07-28","%s":true}' % (PV, CC)),
    "unsupported-protocol-version--2099": call_meta('{"%s":"2099-01-01","%s":{}}' % (PV, CC)),
    # Malformed reserved or known keys answer before the unsupported version (-32022).
    "invalid-client-capabilities--with-unsupported-version": call_meta('{"%s":"2099-01-01","%s":"x"}' % (PV, CC)),
    "missing-client-capabilities--with-unsupported-version": call_meta('{"%s":"2099-01-01"}' % PV),
    "invalid-log-level--with-unsupported-version": call_meta('{"%s":"2099-01-01","%s":{},"io.modelcontextprotocol/logLevel":"loud"}' % (PV, CC)),
    "meta-string-too-long--with-unsupported-version": call_meta('{"%s":"2099-01-01","%s":{},"s":"%s"}' % (PV, CC, "z" * (8 * 1024 + 1))),
    "missing-client-capabilities--version-only": call_meta('{"%s":"2026-07-28"}' % PV),
    # Known keys.
    "invalid-progress-token--array": modern('"progressToken":[1]'),
    "invalid-client-info--no-version": modern('"io.modelcontextprotocol/clientInfo":{"name":"c"}'),
    "invalid-log-level--verbose": modern('"io.modelcontextprotocol/logLevel":"verbose"'),
    "invalid-traceparent--uppercase": modern('"traceparent":"00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01"'),
    "invalid-traceparent--legacy-malformed": call_meta('{"traceparent":"not-a-traceparent"}'),
    "invalid-tracestate--no-key": modern('"tracestate":"=nokey"'),
    "invalid-baggage--no-equals": modern('"baggage":"no equals sign"'),
    "invalid-subscription-id--fraction": modern('"io.modelcontextprotocol/subscriptionId":1.5'),
    "invalid-server-info--array": modern('"io.modelcontextprotocol/serverInfo":[]'),
    # sealkit's pinned _meta bounds.
    "meta-too-large--40k": modern(",".join('"k%d":"%s"' % (i, "y" * 1000) for i in range(40))),
    "meta-too-deep--17": call_meta('{"d":%s1%s}' % ("[" * 17, "]" * 17)),
    "meta-too-many-items--1030": modern('"a":[%s]' % ",".join(["0"] * 1030)),
    "meta-string-too-long--8193": call_meta('{"s":"%s"}' % ("z" * (8 * 1024 + 1))),
}

for name, frame in F.items():
    with open(name + ".frame", "wb") as f:
        # surrogateescape writes the lone byte 0xE9 of the invalid-utf8 fixture as is.
        f.write(frame.encode("utf-8", "surrogateescape") + b"\n")

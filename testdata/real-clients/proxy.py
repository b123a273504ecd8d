#!/usr/bin/env python3
"""A byte-for-byte stdio recorder: `proxy.py OUT_PREFIX -- SERVER_COMMAND...`.

Started by an MCP client in place of the server, it starts the server itself and copies
bytes both ways unchanged, appending the client's bytes to OUT_PREFIX.client.jsonl and the
server's to OUT_PREFIX.server.jsonl exactly as they passed (no parsing, no re-encoding)."""
import os
import subprocess
import sys
import threading


def pump(src, dst, log):
    while True:
        chunk = os.read(src, 65536)
        if not chunk:
            break
        log.write(chunk)
        log.flush()
        os.write(dst, chunk)


def main():
    sep = sys.argv.index("--")
    prefix, command = sys.argv[1], sys.argv[sep + 1:]
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    with open(prefix + ".client.jsonl", "ab") as to_server, open(prefix + ".server.jsonl", "ab") as to_client:
        back = threading.Thread(target=pump, args=(server.stdout.fileno(), 1, to_client), daemon=True)
        back.start()
        pump(0, server.stdin.fileno(), to_server)
        server.stdin.close()
        back.join(timeout=5)
        server.wait(timeout=5)


if __name__ == "__main__":
    main()

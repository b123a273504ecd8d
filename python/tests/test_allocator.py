"""The extension allocates with jemalloc configured as the binary is (`.cargo/config.toml`
builds `narenas:1,dirty_decay_ms:1000` into it), not with the C library's allocator: a Dask
worker's map costs 7-25 % more CPU a receipt with the latter (docs/performance.md, "Archives
on Dask"). jemalloc prints its statistics at exit when asked through its prefixed environment
variable, which only a jemalloc inside the extension reads. Seen red on the wheel built before
the extension had its own allocator (no statistics printed at all)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import ROOT

FRAME = (
    '{"jsonrpc":"2.0","id":1,"method":"tools/call",'
    '"params":{"name":"db.query","arguments":{"sql":"select 1"}}}'
)


@pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the statistics checked are jemalloc's on Linux"
)
def test_the_extension_allocates_with_the_binarys_jemalloc_configuration() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("MALLOC_CONF", "_RJEM_MALLOC_CONF")}
    env["_RJEM_MALLOC_CONF"] = "stats_print:true"
    script = f"import sealkit; record = sealkit.target({FRAME!r}.encode()); print(record['subject'])"
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip(), "no subject printed"
    stats = done.stderr
    assert 'config.malloc_conf: "narenas:1,dirty_decay_ms:1000"' in stats, stats[:2000]
    assert "opt.narenas: 1\n" in stats, stats[:2000]
    assert "opt.dirty_decay_ms: 1000 (arenas.dirty_decay_ms: 1000)\n" in stats, stats[:2000]

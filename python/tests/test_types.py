"""The package type-checks under mypy --strict, and its annotations catch a wrong call (what an
editor shows while the call is typed)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import sealkit

GOOD = """
import pathlib
from typing import Any, Dict

import sealkit

record: Dict[str, Any] = sealkit.target(b'{}\\n', server="srv-a")
records: sealkit.Records = sealkit.verify_chain(pathlib.Path("log.json"), head="00")
ok: bool = records.ok
verdict: sealkit.Verdict = records.verdict
for item in sealkit.audit(["receipts"], receipt_key="key", jobs=2):
    print(item["type"])
try:
    sealkit.verify_tokens(["line"], pubkey="key", now=1786000000000)
except sealkit.Error as err:
    code: str = err.code
"""

WRONG = """
import sealkit

sealkit.target("a path is not a frame")
sealkit.verify_chain("log.json", head=3)
sealkit.audit("receipts", jobs="two")
"""


#: One mypy cache for the module's runs: the standard library's stubs are read once.
CACHE = tempfile.mkdtemp(prefix="sealkit-mypy-")


def mypy(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", CACHE,
                           *args], capture_output=True, text=True, timeout=600)


def test_the_package_passes_mypy_strict() -> None:
    # The installed package, found as an editor finds it (py.typed beside it).
    done = mypy("-p", "sealkit")
    assert done.returncode == 0, done.stdout


def test_annotations_accept_right_calls_and_flag_wrong_ones(tmp_path: Path) -> None:
    good, wrong = tmp_path / "good.py", tmp_path / "wrong.py"
    good.write_text(GOOD)
    wrong.write_text(WRONG)
    done = mypy(str(good))
    assert done.returncode == 0, done.stdout
    done = mypy(str(wrong))
    assert done.returncode == 1
    flagged = {line.split(":")[1] for line in done.stdout.splitlines() if ": error:" in line}
    assert flagged == {"4", "5", "6"}, done.stdout
    assert sealkit.target.__annotations__["frame"]

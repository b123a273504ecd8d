"""The `sealkit` command the wheel installs is the cargo-built binary's program: the same
stdout, stderr and exit status, on the README's first command and on the paths scripts
depend on (JSON, usage errors, a closed stdout, Ctrl-C)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import List, Optional, Tuple

import pytest

from conftest import BIN, ROOT

#: The console script pip installed beside this interpreter.
WHEEL = shutil.which("sealkit", path=os.path.dirname(sys.executable))


def both(args: List[str], stdin: Optional[bytes] = None) -> Tuple[tuple, tuple]:
    runs = []
    for program in (WHEEL, str(BIN)):
        assert program is not None, "no sealkit command beside this interpreter"
        done = subprocess.run([program, *args], input=stdin, capture_output=True, cwd=ROOT,
                              timeout=300)
        runs.append((done.returncode, done.stdout, done.stderr))
    return runs[0], runs[1]


def test_the_readmes_first_command() -> None:
    wheel, binary = both(["target", "testdata/captures/sample.jsonl"])
    assert wheel == binary
    status, stdout, _ = wheel
    assert status == 1  # one frame of the sample is refused
    assert b"duplicate-key" in stdout and b"5 frames: 2 ok, 1 refused, 2 skipped" in stdout


@pytest.mark.parametrize(
    "args",
    [
        ["--format", "jsonl", "target", "testdata/captures/sample.jsonl"],
        ["--format", "json", "verify", "chain", "testdata/receipts/chain/tampered.json"],
        ["verify", "chain", "--color", "never", "testdata/receipts/chain/sealed.json"],
        ["--version"],
        ["--help"],
        ["verify", "receipt"],  # a usage error: exit 2, clap's text on stderr
        ["--format", "json", "target", "--era", "1999", "x"],  # the JSON usage error
        ["verify", "chain", "testdata/no-such-log.json"],  # a stopping error, exit 2
    ],
)
def test_same_output_and_status(args: List[str]) -> None:
    wheel, binary = both(args)
    assert wheel == binary


def test_standard_input() -> None:
    frame = (ROOT / "testdata/vectors/getting-started-call.frame").read_bytes()
    wheel, binary = both(["--format", "jsonl", "target"], stdin=frame)
    assert wheel == binary and wheel[0] == 0


def closed_stdout(program: str, capture: Path) -> Tuple[int, bytes]:
    process = subprocess.Popen([program, "target", str(capture)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=ROOT)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.read(100)
    process.stdout.close()
    stderr = process.stderr.read()
    return process.wait(timeout=300), stderr


def test_a_closed_stdout_ends_both_the_same_way(tmp_path: Path) -> None:
    # Far more output than a pipe holds, with a refused frame at the end: the exit status
    # is the verdict over every frame, and nothing is said about the pipe.
    sample = (ROOT / "testdata/captures/sample.jsonl").read_bytes().splitlines(keepends=True)
    capture = tmp_path / "long.jsonl"
    capture.write_bytes(sample[1] * 3000 + sample[3])
    wheel = closed_stdout(WHEEL or "", capture)
    binary = closed_stdout(str(BIN), capture)
    assert wheel == binary == (1, b"")


def wait_reading_a_pipe(pid: int) -> None:
    """Waits until the process blocks reading its standard input (the kernel's wait channel
    names the pipe), so the signal reaches sealkit and not the interpreter starting up."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if "pipe" in Path(f"/proc/{pid}/wchan").read_text():
                return
        except OSError:
            break
        time.sleep(0.02)
    time.sleep(2)


def reading_stdin(program: str, interrupt: signal.Handlers) -> subprocess.Popen:
    """`program target` waiting on its standard input, started with SIGINT set to `interrupt`
    (as a terminal's foreground job has it, or a script's background job), whatever this test
    run itself inherited."""
    # A child inherits an ignored or default disposition across exec, so it is set here for
    # the moment of the start (not with `preexec_fn`, which is unsafe beside other threads).
    previous = signal.signal(signal.SIGINT, interrupt)
    try:
        # `target` with no file reads standard input and waits for it.
        process = subprocess.Popen([program, "target"], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    finally:
        signal.signal(signal.SIGINT, previous)
    wait_reading_a_pipe(process.pid)
    return process


def test_ctrl_c_ends_both_at_once() -> None:
    for program in (WHEEL, str(BIN)):
        assert program is not None
        process = reading_stdin(program, signal.SIG_DFL)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=20) == -signal.SIGINT, program


def test_an_interrupt_their_parent_ignores_is_ignored_by_both() -> None:
    """A background job of a script starts with SIGINT ignored; the binary keeps it so, and
    the wheel's command must too. (Seen red with the wheel resetting SIGINT unconditionally:
    the wheel died of the signal.)"""
    ends = []
    for program in (WHEEL, str(BIN)):
        assert program is not None
        process = reading_stdin(program, signal.SIG_IGN)
        process.send_signal(signal.SIGINT)
        time.sleep(1)
        assert process.poll() is None, program
        _, stderr = process.communicate(input=b"", timeout=20)
        ends.append((process.returncode, stderr))
    assert ends[0] == ends[1]
    assert ends[0][0] > 0

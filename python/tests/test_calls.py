"""How calls behave as Python: the GIL is released, errors form a hierarchy and pickle,
results are never truthy by accident."""

from __future__ import annotations

import pickle
import subprocess
import sys
import textwrap

import pytest

import sealkit
from conftest import ROOT

#: Two threads each call sealkit on a FIFO, so each call blocks inside sealkit until this
#: thread writes to its FIFO. The second FIFO is written first: its call ends while the first
#: call is still inside sealkit (two calls overlap), and the main thread could write at all
#: only because both calls let go of the GIL. A call holding the GIL would hang this script
#: (the test runs it in a subprocess with a timeout). Seen red with `run` calling
#: `in_process::run` without `py.detach`: the script timed out.
OVERLAP = textwrap.dedent(
    r"""
    import os, sys, threading, time, tempfile
    import sealkit

    frame = open("testdata/vectors/getting-started-call.frame", "rb").read()
    folder = tempfile.mkdtemp()
    fifos = [os.path.join(folder, name) for name in ("first", "second")]
    for fifo in fifos:
        os.mkfifo(fifo)
    done = {}

    def call(fifo):
        done[fifo] = sealkit.target_capture(fifo)

    threads = [threading.Thread(target=call, args=(fifo,), daemon=True) for fifo in fifos]
    for thread in threads:
        thread.start()

    def feed(fifo):
        # Opening for writing fails (ENXIO) until sealkit has opened the FIFO to read it.
        deadline = time.monotonic() + 20
        while True:
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError:
                if time.monotonic() > deadline:
                    sys.exit("sealkit never opened " + fifo)
                time.sleep(0.01)
        os.set_blocking(fd, True)
        os.write(fd, frame)
        os.close(fd)

    feed(fifos[1])
    threads[1].join(20)
    assert fifos[1] in done, "the second call did not end"
    assert fifos[0] not in done, "the first call ended before its input was written"
    feed(fifos[0])
    threads[0].join(20)
    for fifo in fifos:
        record = done[fifo].record
        assert record["identities"]["host"]["target"] == (
            "2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565"
        )
    print("overlapped")
    """
)


def test_two_threads_run_sealkit_at_once() -> None:
    done = subprocess.run(
        [sys.executable, "-c", OVERLAP], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout.strip()) == (0, "overlapped"), done.stderr


def test_the_exception_hierarchy() -> None:
    for cls, builtin in [
        (sealkit.UsageError, ValueError),
        (sealkit.InvalidInput, ValueError),
        (sealkit.InputError, OSError),
        (sealkit.RefusedFrame, ValueError),
        (sealkit.NotAToolCall, ValueError),
    ]:
        assert issubclass(cls, sealkit.Error) and issubclass(cls, builtin)
    assert issubclass(sealkit.Error, Exception)


def test_errors_carry_their_object_and_survive_pickling() -> None:
    with pytest.raises(sealkit.InputError) as raised:
        sealkit.verify_chain("testdata/no-such-log.json")
    error = raised.value
    assert error.code == "unreadable-file"
    assert error.object() == error.errors[0]
    assert error.object()["type"] == "error" and error.causes
    assert str(error).endswith("[unreadable-file]")
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is sealkit.InputError
    assert (copy.code, copy.message, copy.causes, copy.help) == (
        error.code, error.message, error.causes, error.help
    )
    with pytest.raises(sealkit.RefusedFrame) as refused:
        sealkit.target(b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","name":"u"}}\n')
    copy = pickle.loads(pickle.dumps(refused.value))
    assert (copy.code, copy.record, copy.offset) == (
        "duplicate-key", refused.value.record, refused.value.offset
    )


def test_records_are_a_sequence_never_a_truth_value() -> None:
    records = sealkit.verify_chain("testdata/receipts/chain/tampered.json")
    assert len(records) == 1 and records[0] is records.record and list(records) == [records[0]]
    assert records.exit_status == 1 and int(records.verdict) == 1
    with pytest.raises(TypeError):
        bool(records)
    with pytest.raises(ValueError):
        sealkit.target_capture("testdata/captures/sample.jsonl").record


def test_inputs_of_the_wrong_kind_are_type_errors() -> None:
    with pytest.raises(TypeError):
        sealkit.verify_receipt(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        sealkit.audit([b"bytes are no directory"])  # type: ignore[list-item]
    # A path spelled "-" is the file of that name, not standard input.
    with pytest.raises(sealkit.InputError) as raised:
        sealkit.verify_chain("-")
    assert "./-" in raised.value.message


def test_the_package_is_typed_and_its_stub_matches_the_extension() -> None:
    import ast
    import inspect
    from pathlib import Path

    from sealkit import _native

    package = Path(sealkit.__file__).parent
    assert (package / "py.typed").exists()
    stub = ast.parse((package / "_native.pyi").read_text())
    declared = {
        node.name if not isinstance(node, ast.AnnAssign) else node.target.id  # type: ignore[union-attr]
        for node in stub.body
        if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AnnAssign))
    }
    exported = {name for name in dir(_native) if not name.startswith("_")} | {"__version__"}
    assert declared == exported
    # Every public function has a docstring and annotations an editor can check.
    for name in sealkit.__all__:
        item = getattr(sealkit, name)
        if callable(item) and not isinstance(item, type):
            assert inspect.getdoc(item), name
            assert "return" in item.__annotations__, name
    assert sealkit.__version__ == "0.1.0"

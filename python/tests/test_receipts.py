"""sealkit.verify_receipt, verify_chain and audit over seal-host's own receipts, chains and
receipt directories (testdata/receipts)."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import List

import pytest

import sealkit
from conftest import LVC, NEW_KEY, NEW_RECEIPTS, NEW_SEED_IN_EVIDENCE, OLD_RECEIPTS, ROOT, cli, conforms, same_as_cli

MANIFEST = json.loads((ROOT / "testdata/legacy-vs-current/manifest.json").read_text())


def relative(paths) -> List[str]:
    return [str(Path(p).relative_to(ROOT)) for p in paths]


def test_every_record_version_3_receipt_authenticates_with_its_manifest_verdict() -> None:
    expected = {
        Path(r["file"]).name: r for r in MANIFEST["receipts"] if r["era"] == "new"
    }
    files = relative(sorted(NEW_RECEIPTS.glob("receipt-*.json")))
    assert len(files) == 13
    key = str(NEW_KEY.relative_to(ROOT))
    records = sealkit.verify_receipt(files, receipt_key=key)
    assert records.verdict is sealkit.Verdict.GOOD and records.ok
    for record in records:
        manifest = expected[Path(record["file"]).name]
        assert record["status"] == "authenticated"
        assert record["reported"]["verdict"] == manifest["verdict"]
        assert record["reported"]["session"] == manifest["session"]
    same_as_cli(records, "verify", "receipt", "--receipt-key", key, *files)
    # The key as hex is the same pin.
    by_hex = sealkit.verify_receipt(files, receipt_key=MANIFEST["receipt_key_new"]["public_key"])
    assert by_hex.verdict is sealkit.Verdict.GOOD
    assert [r["status"] for r in by_hex] == ["authenticated"] * 13


def test_a_key_read_from_inside_the_receipts_is_a_problem_not_a_pass() -> None:
    # The seed seal-host wrote beside the receipts authenticates them only against
    # themselves: whoever rewrote the receipts could rewrite it. Every receipt still checks
    # (status authenticated), and the run is a problem with receipt-key-in-evidence, as the
    # CLI says (the CI run that failed on 2026-12-05 was this test's docs passing such a key).
    files = relative(sorted(NEW_RECEIPTS.glob("receipt-*.json")))
    key = str(NEW_SEED_IN_EVIDENCE.relative_to(ROOT))
    records = sealkit.verify_receipt(files, receipt_key=key)
    assert records.verdict is sealkit.Verdict.PROBLEMS and records.exit_status == 1
    assert [r["status"] for r in records.of_type("receipt")] == ["authenticated"] * 13
    codes = {f["code"] for r in records for f in r.get("findings", [])}
    codes |= {r["code"] for r in records if r.get("type") == "finding"}
    assert "receipt-key-in-evidence" in codes
    same_as_cli(records, "verify", "receipt", "--receipt-key", key, *files)
    stream = sealkit.audit(str(NEW_RECEIPTS.relative_to(ROOT)), receipt_key=key, jobs=1)
    found = [r["code"] for r in stream if r["type"] == "finding"]
    assert "receipt-key-in-evidence" in found and stream.verdict is sealkit.Verdict.PROBLEMS


def test_one_receipt_by_path_or_bytes() -> None:
    path = sorted(NEW_RECEIPTS.glob("receipt-*.json"))[0]
    by_path = sealkit.verify_receipt(path, receipt_key=NEW_KEY)
    assert by_path.record["file"] == str(path)
    data = path.read_bytes()
    by_bytes = sealkit.verify_receipt(data, receipt_key=NEW_KEY)
    assert by_bytes.record["file"] == "-"
    assert by_bytes.record["status"] == "authenticated"
    same_as_cli(by_bytes, "verify", "receipt", "--receipt-key", str(NEW_KEY), "-", stdin=data)
    # Without the key nothing authenticates: a problem, never a pass.
    unpinned = sealkit.verify_receipt(data)
    assert unpinned.record["status"] == "unpinned"
    assert unpinned.verdict is sealkit.Verdict.PROBLEMS


def test_record_version_2_receipts_are_unsigned_problems() -> None:
    files = relative(sorted(OLD_RECEIPTS.glob("receipt-*.json")))
    records = sealkit.verify_receipt(files)
    assert {r["status"] for r in records} == {"unsigned"}
    assert records.verdict is sealkit.Verdict.PROBLEMS
    same_as_cli(records, "verify", "receipt", *files)


def test_the_manifests_first_damage_fails_its_signature() -> None:
    # The manifest's damaged receipt: a BLOCK receipt's verdict changed to ALLOW.
    damage = MANIFEST["damaged"][0]
    assert damage["damage"] == "verdict BLOCK->ALLOW"
    source = LVC / damage["made_from"]
    forged = source.read_bytes().replace(b'"BLOCK"', b'"ALLOW"')
    assert forged != source.read_bytes()
    records = sealkit.verify_receipt(forged, receipt_key=str(NEW_KEY))
    assert records.verdict is sealkit.Verdict.PROBLEMS
    assert records.record["status"] == "failed"
    assert "signature-invalid" in [f["code"] for f in records.record["findings"]]
    same_as_cli(records, "verify", "receipt", "--receipt-key", str(NEW_KEY), "-", stdin=forged)


def test_unreadable_receipts_raise_input_error_with_the_records_so_far() -> None:
    good = str(sorted(NEW_RECEIPTS.glob("receipt-*.json"))[0].relative_to(ROOT))
    with pytest.raises(sealkit.InputError) as raised:
        sealkit.verify_receipt([good, "testdata/no-such-receipt.json"], receipt_key=NEW_KEY)
    error = raised.value
    assert error.code == "unreadable-file" and isinstance(error, OSError)
    assert error.exit_status == 2
    assert [r["status"] for r in error.records] == ["authenticated"]
    assert error.records.verdict is sealkit.Verdict.UNCHECKED
    run = cli("--format", "jsonl", "verify", "receipt", "--receipt-key", str(NEW_KEY), good,
              "testdata/no-such-receipt.json")
    assert (run.status, run.errors()) == (2, error.errors)
    assert error.records.raw == run.stdout


@pytest.mark.parametrize(
    ("sealed", "status", "verdict"),
    [
        ("sealed.json", "ok", sealkit.Verdict.GOOD),
        ("fixture_run_sealed.json", "ok", sealkit.Verdict.GOOD),
        ("tampered.json", "fail", sealkit.Verdict.PROBLEMS),
        ("badgenesis.json", "fail", sealkit.Verdict.PROBLEMS),
    ],
)
def test_sealed_logs(sealed: str, status: str, verdict: sealkit.Verdict) -> None:
    path = f"testdata/receipts/chain/{sealed}"
    records = sealkit.verify_chain(path)
    assert records.record["type"] == "chain"
    assert (records.record["status"], records.verdict) == (status, verdict)
    same_as_cli(records, "verify", "chain", path)


def test_chain_head_state_and_audit_lines() -> None:
    path = "testdata/receipts/chain/sealed.json"
    head = sealkit.verify_chain(path).record["head"]
    assert head == "6371adc9ae7b23ab6914d51a87793b750379f62145ce4a4e7e06ea3bf3b89363"
    assert sealkit.verify_chain(path, head=head).ok
    wrong = sealkit.verify_chain(path, head="0" * 64)
    assert wrong.verdict is sealkit.Verdict.PROBLEMS
    assert wrong.record["expected_head"] == {"expected": "0" * 64, "ok": False}
    same_as_cli(wrong, "verify", "chain", "--head", "0" * 64, path)
    # The new receipts' audit lines end at the head their state file holds.
    lines = "testdata/receipts/legacy-vs-current/new/audit.lines"
    state = "testdata/receipts/legacy-vs-current/new/receipts/.seal-audit-head.state"
    records = sealkit.verify_chain(lines, audit_lines=True, state=state)
    assert records.record["kind"] == "audit-lines"
    assert records.record["head"] == MANIFEST["chain_heads"]["new"]
    assert records.record["state"]["ok"] is True and records.ok
    same_as_cli(records, "verify", "chain", "--audit-lines", lines, "--state", state)
    # Contents as bytes.
    data = (ROOT / lines).read_bytes()
    from_bytes = sealkit.verify_chain(data, audit_lines=True)
    assert from_bytes.record["head"] == MANIFEST["chain_heads"]["new"]


def receipt_dir(tmp_path: Path, source: Path) -> Path:
    """A copy of a receipt directory with seal-host's modes (0700, files 0600) and without
    its signing key (a key beside the receipts is a finding of its own)."""
    copy = tmp_path / "receipts"
    shutil.copytree(source, copy)
    (copy / ".seal-receipt-ed25519.key").unlink()
    os.chmod(copy, 0o700)
    for file in copy.iterdir():
        os.chmod(file, 0o600)
    return copy


def test_audit_streams_the_commands_records(tmp_path: Path) -> None:
    directory = receipt_dir(tmp_path, NEW_RECEIPTS)
    stream = sealkit.audit(directory, receipt_key=NEW_KEY, jobs=2)
    assert iter(stream) is stream and not hasattr(stream, "__len__")
    assert stream.verdict is None
    records = list(stream)
    assert stream.verdict is sealkit.Verdict.GOOD and stream.ok
    conforms(records)
    kinds = [r["type"] for r in records]
    assert kinds.count("receipt") == 13 and kinds[-1] == "summary"
    assert records[-1]["receipts"] == 13
    run = cli("--format", "jsonl", "audit", "--jobs", "2", "--receipt-key", NEW_KEY, directory)
    assert records == [json.loads(line) for line in run.stdout.splitlines()]
    assert run.status == stream.verdict


def test_audit_finds_a_deleted_and_an_altered_receipt(tmp_path: Path) -> None:
    directory = receipt_dir(tmp_path, NEW_RECEIPTS)
    receipts = sorted(directory.glob("receipt-*.json"))
    receipts[3].unlink()
    altered = receipts[5].read_bytes().replace(b'"ALLOW"', b'"BLOCK"', 1)
    receipts[5].write_bytes(altered)
    stream = sealkit.audit([directory], receipt_key=str(NEW_KEY))
    records = list(stream)
    assert stream.verdict is sealkit.Verdict.PROBLEMS
    codes = {f["code"] for f in records if f["type"] == "finding"}
    codes |= {f["code"] for r in records if r["type"] == "receipt" for f in r.get("findings", [])}
    assert "signature-invalid" in codes
    run = cli("--format", "jsonl", "audit", "--receipt-key", NEW_KEY, directory)
    expected = [json.loads(line) for line in run.stdout.splitlines()]
    assert sorted(map(json.dumps, records)) == sorted(map(json.dumps, expected))
    assert run.status == 1


def test_an_audit_that_cannot_start_raises_after_no_record() -> None:
    stream = sealkit.audit("testdata/no-such-directory")
    with pytest.raises(sealkit.InputError) as raised:
        next(stream)
    assert raised.value.code == cli("--format", "jsonl", "audit", "testdata/no-such-directory").errors()[0]["code"]
    assert stream.verdict is sealkit.Verdict.UNCHECKED


def sealkit_threads() -> int:
    """This process's threads named `sealkit` (the thread an audit stream runs on)."""
    count = 0
    for task in Path("/proc/self/task").iterdir():
        try:
            count += (task / "comm").read_text().strip() == "sealkit"
        except OSError:
            pass
    return count


def test_leaving_an_audit_early_ends_its_thread(tmp_path: Path) -> None:
    directory = tmp_path / "many"
    directory.mkdir(mode=0o700)
    source = sorted(NEW_RECEIPTS.glob("receipt-*.json"))[0].read_bytes()
    for index in range(1200):
        path = directory / f"receipt-{index:020d}-{'ab' * 32}.json"
        path.write_bytes(source)
        os.chmod(path, 0o600)
    before = sealkit_threads()
    with sealkit.audit(directory, receipt_key=NEW_KEY, jobs=1) as stream:
        first = next(stream)
        assert first["type"] in ("receipt", "finding")
        # The audit waits for its reader (its threads inherit the name `sealkit`).
        assert sealkit_threads() > before
    assert stream.verdict is None
    with pytest.raises(StopIteration):
        next(stream)
    # It stops at its next write; on a loaded machine a batch of a debug build takes a while.
    deadline = time.monotonic() + 180
    while sealkit_threads() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert sealkit_threads() == before

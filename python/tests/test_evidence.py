"""sealkit.evidence_ref / evidence_verify over the bundled receipts and the annotated capture
(testdata/evidence), whose references `evidence ref` printed for those receipts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import sealkit
from conftest import NEW_KEY, NEW_RECEIPTS, ROOT, cli, same_as_cli

CAPTURE = "testdata/evidence/annotated.capture"
RECEIPTS = str(NEW_RECEIPTS.relative_to(ROOT))
KEY = str(NEW_KEY.relative_to(ROOT))


def annotated_refs():
    """Every evidenceRef the capture's responses carry."""
    refs = []
    for line in (ROOT / CAPTURE).read_text().splitlines():
        frame = json.loads(line)
        meta = (frame.get("result") or {}).get("_meta") or {}
        annotation = meta.get("io.modelcontextprotocol/trust-annotations")
        if annotation:
            found = annotation["evidenceRef"]
            refs.extend(found if isinstance(found, list) else [found])
    return refs


def test_evidence_ref_names_every_authenticated_receipt_as_the_capture_does() -> None:
    files = sorted(str(p.relative_to(ROOT)) for p in NEW_RECEIPTS.glob("receipt-*.json"))
    records = sealkit.evidence_ref(files, receipt_key=KEY)
    assert records.ok and len(records) == 13
    assert all(r["status"] == "authenticated" and "evidenceRef" in r for r in records)
    ours = [r["evidenceRef"] for r in records]
    for reference in annotated_refs():
        assert reference in ours
    same_as_cli(records, "evidence", "ref", "--receipt-key", KEY, *files)


def test_evidence_ref_of_an_unpinned_receipt_is_a_problem() -> None:
    path = sorted(NEW_RECEIPTS.glob("receipt-*.json"))[0]
    records = sealkit.evidence_ref(path.read_bytes())
    assert records.verdict is sealkit.Verdict.PROBLEMS
    assert records.record["status"] == "unpinned" and "evidenceRef" not in records.record


def test_evidence_verify_checks_every_reference_of_the_capture() -> None:
    records = sealkit.evidence_verify(frames=CAPTURE, evidence=RECEIPTS, receipt_key=KEY)
    assert records.ok
    assert len(records) == len(annotated_refs())
    assert {r["status"] for r in records} == {"verified"}
    same_as_cli(records, "evidence", "verify", "--frames", CAPTURE, "--evidence", RECEIPTS,
                "--receipt-key", KEY)


def test_evidence_verify_of_refs_given_as_bytes(tmp_path: Path) -> None:
    refs = sealkit.evidence_ref(
        [sorted(NEW_RECEIPTS.glob("receipt-*.json"))[0]], receipt_key=NEW_KEY
    ).raw
    records = sealkit.evidence_verify(refs=refs, evidence=[NEW_RECEIPTS], receipt_key=NEW_KEY)
    assert records.ok and records.record["file"] == "-"
    # A reference whose digest names other bytes fails.
    record = json.loads(refs)
    digest = record["evidenceRef"]["digest"]
    record["evidenceRef"]["digest"] = digest[:-1] + ("1" if digest.endswith("0") else "0")
    forged = sealkit.evidence_verify(
        refs=json.dumps(record).encode(), evidence=NEW_RECEIPTS, receipt_key=NEW_KEY
    )
    assert forged.verdict is sealkit.Verdict.PROBLEMS
    assert forged.record["status"] == "failed"


def test_evidence_verify_with_nothing_to_check_raises() -> None:
    with pytest.raises(sealkit.Error) as raised:
        sealkit.evidence_verify(refs=b"", evidence=RECEIPTS)
    run = cli("--format", "jsonl", "evidence", "verify", "--refs", "-", "--evidence", RECEIPTS,
              stdin=b"")
    assert raised.value.errors == run.errors() and run.status == 2
    assert raised.value.code == "no-evidence-refs"

"""Shared fixtures: the repository's test data, the cargo-built binary the API is compared
with, and the JSON contract's schemas (docs/schema/v1) every record is validated against."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence

import jsonschema
import pytest
from referencing import Registry, Resource

#: The repository root: the tests read testdata/ and docs/ from it and run from it.
ROOT = Path(__file__).resolve().parents[2]
#: The binary built by cargo from the same sources (`.ci/run` builds it before pytest).
BIN = Path(os.environ.get("SEALKIT_BIN", ROOT / "target" / "debug" / "sealkit"))

RECEIPT_DIR = ROOT / "testdata/receipts/fixture-dir"
#: The receipt keys pinned: public keys kept apart from the receipt directories
#: (testdata/keys/PROVENANCE.md). A key read from inside the directory checked authenticates
#: nothing independent, and sealkit says so (receipt-key-in-evidence, a problem).
RECEIPT_KEY = ROOT / "testdata/keys/fixture-dir-receipt.pub"
LVC = ROOT / "testdata/receipts/legacy-vs-current"
NEW_RECEIPTS = LVC / "new/receipts"
OLD_RECEIPTS = LVC / "old/receipts"
NEW_KEY = ROOT / "testdata/keys/legacy-vs-current-receipt.pub"
#: The seed seal-host wrote beside the receipts (inside the evidence).
NEW_SEED_IN_EVIDENCE = NEW_RECEIPTS / ".seal-receipt-ed25519.key"
#: The approval fixtures' key (seed 0x17 × 32, testdata/approvals/PROVENANCE.md).
APPROVAL_PUBKEY = "31debe55d37c722768b137131caa6087080b2e0b60b94bd785d14575cfa498bc"


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs from the repository root, as the README's commands do."""
    monkeypatch.chdir(ROOT)


class Cli:
    """One run of the cargo-built binary."""

    def __init__(self, args: Sequence[str], stdin: Optional[bytes] = None) -> None:
        if not BIN.exists():
            pytest.fail(f"no sealkit binary at {BIN}: run `cargo build` or set SEALKIT_BIN")
        done = subprocess.run(
            [str(BIN), *args], input=stdin, capture_output=True, cwd=ROOT, timeout=600
        )
        self.status = done.returncode
        self.stdout = done.stdout
        self.stderr = done.stderr

    def errors(self) -> List[Dict[str, Any]]:
        """The JSON error objects on stderr (in a JSON mode)."""
        return [json.loads(line) for line in self.stderr.splitlines() if line.strip()]


def cli(*args: str, stdin: Optional[bytes] = None) -> Cli:
    return Cli([str(arg) for arg in args], stdin)


def _schemas() -> Dict[str, jsonschema.protocols.Validator]:
    registry: Registry = Registry()
    documents = {}
    for path in sorted((ROOT / "docs/schema/v1").glob("*.json")):
        document = json.loads(path.read_text())
        documents[path.stem] = document
        registry = registry.with_resource(document["$id"], Resource.from_contents(document))
    validators = {}
    for kind, document in documents.items():
        cls = jsonschema.validators.validator_for(document)
        cls.check_schema(document)
        validators[kind] = cls(document, registry=registry)
    return validators


SCHEMAS = _schemas()
#: How many records of each type the suite validated (a test checks every API kind was seen).
VALIDATED: Dict[str, int] = {}


def _no_repeated_members(pairs: List[Any]) -> Dict[str, Any]:
    names = [name for name, _ in pairs]
    repeated = {name for name in names if names.count(name) > 1}
    assert not repeated, f"a member named twice: {sorted(repeated)}"
    return dict(pairs)


def conforms(records: Iterable[Dict[str, Any]], raw: Optional[bytes] = None) -> None:
    """Every record has `type` first and matches docs/schema/v1/<type>.json; with `raw`, the
    JSON Lines name no member twice (a dict would hide it)."""
    if raw is not None:
        for line in raw.splitlines():
            json.loads(line, object_pairs_hook=_no_repeated_members)
    for record in records:
        kind = next(iter(record))
        assert kind == "type", f"`type` is not the first member: {record}"
        schema = SCHEMAS.get(record["type"])
        assert schema is not None, f"no schema for {record['type']}"
        problems = [f"{e.message} at {list(e.absolute_path)}" for e in schema.iter_errors(record)]
        assert not problems, f"a {record['type']} record does not match its schema: {problems}"
        VALIDATED[record["type"]] = VALIDATED.get(record["type"], 0) + 1


def same_as_cli(records: Any, *args: str, stdin: Optional[bytes] = None) -> Cli:
    """The API's records are the binary's `--format jsonl` output byte for byte, with the
    same exit status; and every record conforms to its schema."""
    run = cli("--format", "jsonl", *args, stdin=stdin)
    assert records.raw == run.stdout
    assert records.exit_status == run.status, run.stderr
    conforms(records, records.raw)
    return run

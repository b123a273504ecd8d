"""Archive audits mapped and reduced apart (issue 39, items 5 and 6): `sealkit.audit_partition`
/ `sealkit.audit_reduce`, and `sealkit.dask.audit` on a LocalCluster of two worker processes.
Over an archive whose problems straddle partition boundaries (every receipt of one host also
in a second directory, so the same receipt lies in two partitions; a receipt deleted from the
second, leaving a gap in its counters and chain; one altered; one re-spaced; a file seal-host
does not write), the findings equal `sealkit audit --format json`'s over the same files, as a
multiset of (code, path), for several partition counts down to one file a partition."""

from __future__ import annotations

import collections
import json
import os
import shutil
from pathlib import Path
from typing import Any, Counter, Dict, Iterator, List, Tuple

import pytest
from distributed import Client, LocalCluster

import sealkit
import sealkit.dask
from conftest import NEW_KEY, NEW_RECEIPTS, cli, conforms

Pairs = Counter[Tuple[str, str]]


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, Client(cluster) as client:
        yield client


def private_copy(source: Path, to: Path) -> Path:
    """`cp -a` of a receipt directory (modes 0700 / 0600), without the seed seal-host left."""
    to.mkdir(mode=0o700)
    for file in sorted(source.iterdir()):
        if file.name != ".seal-receipt-ed25519.key":
            shutil.copyfile(file, to / file.name)
            os.chmod(to / file.name, 0o600)
    return to


def archive(root: Path) -> Path:
    """host-a: the fixture's receipts, one altered; host-b: a copy, one receipt deleted
    (a released ALLOW: its operation stays in the state file), one re-spaced, and a file
    seal-host does not write."""
    root.mkdir(mode=0o700)
    host_a = private_copy(NEW_RECEIPTS, root / "host-a")
    host_b = private_copy(NEW_RECEIPTS, root / "host-b")
    receipts = sorted(host_a.glob("receipt-*.json"))
    altered = receipts[5].read_bytes().replace(b'"ALLOW"', b'"BLOCK"', 1)
    receipts[5].write_bytes(altered)
    (host_b / receipts[0].name).unlink()
    respaced = host_b / receipts[-1].name
    respaced.write_bytes(respaced.read_bytes().replace(b"\n", b"\n "))
    (host_b / "notes.txt").write_bytes(b"not seal-host's")
    os.chmod(host_b / "notes.txt", 0o600)
    return root


def cli_pairs(*roots: Any) -> Tuple[Pairs, Dict[str, Any], int]:
    """`sealkit audit --format json`: its findings (the receipts' own and the rest) as a
    multiset of (code, path), its summary, its exit status."""
    run = cli("--format", "json", "audit", "--receipt-key", NEW_KEY, *roots)
    document = json.loads(run.stdout)
    findings = [f for r in document["receipts"] for f in r["file_findings"]]
    findings += document["findings"]
    return pairs(findings), document["summary"], run.status


def pairs(findings: List[Dict[str, Any]]) -> Pairs:
    return collections.Counter((f["code"], f.get("path", "")) for f in findings)


def reduced_pairs(records: List[Dict[str, Any]]) -> Tuple[Pairs, Dict[str, Any]]:
    conforms(records)
    assert records[-1]["type"] == "summary"
    assert {r["type"] for r in records[:-1]} <= {"finding"}
    return pairs(records[:-1]), records[-1]


def test_map_and_reduce_in_this_process_equal_the_command(tmp_path: Path) -> None:
    root = archive(tmp_path / "archive")
    expected, summary, status = cli_pairs(root)
    assert status == 1
    plan = sealkit.audit_plan(root, receipt_key=NEW_KEY)
    for count in (1, 2, 3, 7, len(plan)):
        facts = [
            sealkit.audit_partition(part, receipt_key=plan.receipt_key)
            for part in plan.partitions(count)
        ]
        reduction = sealkit.audit_reduce(plan, facts)
        got, got_summary = reduced_pairs(list(reduction))
        assert got == expected, count
        assert got_summary == summary
        assert reduction.verdict is sealkit.Verdict.PROBLEMS
    # The facts are compact: a few hundred bytes a receipt (measured: docs/python.md).
    facts = sealkit.audit_partition(plan.paths, receipt_key=plan.receipt_key)
    assert len(facts) < 1000 * len(plan)


def test_facts_out_of_order_are_refused(tmp_path: Path) -> None:
    root = archive(tmp_path / "archive")
    plan = sealkit.audit_plan(root, receipt_key=NEW_KEY)
    facts = [sealkit.audit_partition(part) for part in plan.partitions(2)]
    with pytest.raises(sealkit.Error) as raised:
        list(sealkit.audit_reduce(plan, reversed(facts)))
    assert raised.value.code == "facts-mismatch"
    with pytest.raises(sealkit.Error) as raised:
        list(sealkit.audit_reduce(plan, facts[:1]))
    assert raised.value.code == "facts-mismatch"


def test_dask_audit_equals_the_command_for_several_partition_counts(
    tmp_path: Path, client: Client
) -> None:
    root = archive(tmp_path / "archive")
    expected, summary, status = cli_pairs(root)
    # Each problem is there to be found, and the copy's receipts straddle partitions.
    codes = {code for code, _ in expected}
    for code in (
        "duplicate-receipt",
        "operation-receipt-missing",
        "chain-state-mismatch",
        "signature-invalid",
        "unexpected-file",
    ):
        assert code in codes, code
    plan = sealkit.audit_plan(root, receipt_key=NEW_KEY)
    for count in (2, 3, 5, len(plan)):
        audit = sealkit.dask.audit(root, partitions=count, client=client, receipt_key=NEW_KEY)
        assert audit.verdict is None
        got, got_summary = reduced_pairs(list(audit))
        assert got == expected, count
        assert got_summary == summary
        assert int(audit.verdict) == status


def test_dask_audit_of_fsspec_urls(tmp_path: Path, client: Client) -> None:
    """The archive named by `file://` URLs: listed and read through fsspec (the workers read
    each partition's bytes), the same findings under the URLs."""
    root = archive(tmp_path / "archive")
    expected, summary, _ = cli_pairs(root / "host-a", root / "host-b")
    urls = [f"file://{root / 'host-a'}", f"file://{root / 'host-b'}"]
    audit = sealkit.dask.audit(urls, partitions=3, client=client, receipt_key=NEW_KEY)
    got, got_summary = reduced_pairs(list(audit))
    stripped = collections.Counter(
        {(code, path.replace("file://", "", 1)): n for (code, path), n in got.items()}
    )
    assert stripped == expected
    assert got_summary == summary


def test_the_example_script_audits_on_a_running_cluster(tmp_path: Path, client: Client) -> None:
    """examples/dask_audit.py, pointed at the test's cluster: the command's exit status, and
    its error findings printed."""
    import subprocess
    import sys

    from conftest import ROOT

    root = archive(tmp_path / "archive")
    expected, summary, status = cli_pairs(root)
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples/dask_audit.py"), "--scheduler",
         client.scheduler.address, "--receipt-key", str(NEW_KEY), str(root)],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == status == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1].startswith(f"PROBLEMS: {summary['statuses']['authenticated']} of {summary['receipts']}")
    errors = sum(n for (code, _), n in expected.items() if code in {
        c["code"] for c in summary["findings"] if c["severity"] == "error"})
    assert len(lines) - 1 == errors

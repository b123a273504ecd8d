"""sealkit.verify_tokens over seal-host's own token files (testdata/approvals)."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

import sealkit
from conftest import APPROVAL_PUBKEY, ROOT, cli, conforms, same_as_cli

APPROVALS = "testdata/approvals"
GETTING_STARTED = f"{APPROVALS}/approve-cli-getting-started.token.ndjson"
FRAME = f"{APPROVALS}/getting-started-call.frame"
TARGET = "2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565"
AUTHORIZED_AT = 1786000000000


def test_the_getting_started_token_is_accepted_and_bound() -> None:
    records = sealkit.verify_tokens(
        Path(GETTING_STARTED), pubkey=APPROVAL_PUBKEY, frame=FRAME, target=TARGET,
        now=AUTHORIZED_AT + 60_000,
    )
    assert records.ok and records.verdict is sealkit.Verdict.GOOD
    (token,) = records.of_type("token")
    assert token["status"] == "accepted" and token["kind"] == "approval-record-v2"
    assert token["signed"]["target"] == TARGET
    assert token["signed"]["nonce"] == "nonce-fixture-1"
    assert token["binding"]["subject"] == "match" and token["binding"]["target"] == "match"
    assert token["binding"]["freshness"] == "fresh"
    summary = records.summary
    assert summary is not None and summary["accepted"] == 1 and summary["rejected"] == 0
    assert summary["trusted_key"]["public_key"] == APPROVAL_PUBKEY
    same_as_cli(
        records, "verify", "approval", GETTING_STARTED, "--pubkey", APPROVAL_PUBKEY,
        "--frame", FRAME, "--target", TARGET, "--now", str(AUTHORIZED_AT + 60_000),
    )


def test_an_expired_token_and_another_frame_are_rejected() -> None:
    late = datetime.datetime.fromtimestamp(
        (AUTHORIZED_AT + 600_000) / 1000, tz=datetime.timezone.utc
    )
    records = sealkit.verify_tokens(Path(GETTING_STARTED), pubkey=APPROVAL_PUBKEY, now=late)
    assert records.verdict is sealkit.Verdict.PROBLEMS
    assert records.of_type("token")[0]["status"] == "rejected"
    same_as_cli(records, "verify", "approval", GETTING_STARTED, "--pubkey", APPROVAL_PUBKEY,
                "--now", str(AUTHORIZED_AT + 600_000))
    other = (ROOT / f"{APPROVALS}/rust-unit-row40.frame").read_bytes()
    records = sealkit.verify_tokens(Path(GETTING_STARTED), pubkey=APPROVAL_PUBKEY, frame=other)
    assert records.of_type("token")[0]["binding"]["subject"] == "mismatch"
    assert records.verdict is sealkit.Verdict.PROBLEMS


@pytest.mark.parametrize(
    ("tokens", "frame"),
    [
        ("rust-unit-row40.token.ndjson", "rust-unit-row40.frame"),
        ("approve-cli-getting-started.token.ndjson", "getting-started-call.frame"),
    ],
)
def test_fixture_tokens_bind_to_their_frames(tokens: str, frame: str) -> None:
    path, frame_path = f"{APPROVALS}/{tokens}", f"{APPROVALS}/{frame}"
    records = sealkit.verify_tokens(Path(path), pubkey=APPROVAL_PUBKEY, frame=frame_path)
    assert records.ok
    same_as_cli(records, "verify", "approval", path, "--pubkey", APPROVAL_PUBKEY,
                "--frame", frame_path)


def test_the_fixture_run_token_binds_to_its_line_given_as_bytes() -> None:
    frame = (ROOT / f"{APPROVALS}/fixture-run-line.txt").read_bytes() + b"\n"
    path = f"{APPROVALS}/fixture-run-allow.token.ndjson"
    records = sealkit.verify_tokens(Path(path), pubkey=APPROVAL_PUBKEY, frame=frame)
    assert records.ok
    assert records.summary["checked"]["frame"]["file"] == "-"
    same_as_cli(records, "verify", "approval", path, "--pubkey", APPROVAL_PUBKEY,
                "--frame", "-", stdin=frame)


def test_lines_as_text_bytes_or_a_list() -> None:
    text = (ROOT / f"{APPROVALS}/legacy-vs-current/new/approvals-M.ndjson").read_text()
    from_list = sealkit.verify_tokens(text.splitlines(), pubkey=APPROVAL_PUBKEY)
    from_kept_ends = sealkit.verify_tokens(text.splitlines(keepends=True), pubkey=APPROVAL_PUBKEY)
    from_bytes = sealkit.verify_tokens(text.encode(), pubkey=APPROVAL_PUBKEY)
    assert from_list.raw == from_kept_ends.raw == from_bytes.raw
    assert len(from_list.of_type("token")) == 3
    same_as_cli(from_bytes, "verify", "approval", "--pubkey", APPROVAL_PUBKEY, "-",
                stdin=text.encode())


def test_trusted_approvers_name_each_approver(tmp_path: Path) -> None:
    approvers = tmp_path / "approvers"
    approvers.write_text(f"alice-oncall {APPROVAL_PUBKEY}\n")
    records = sealkit.verify_tokens(Path(GETTING_STARTED), trusted_approvers=approvers)
    assert records.ok
    assert records.of_type("token")[0]["signed_by"]["name"] == "alice-oncall"
    same_as_cli(records, "verify", "approval", GETTING_STARTED, "--trusted-approvers",
                str(approvers))


def test_errors_carry_the_commands_codes(tmp_path: Path) -> None:
    sealed = Path("testdata/receipts/chain/sealed.json")
    with pytest.raises(sealkit.InvalidInput) as raised:
        sealkit.verify_tokens(sealed, pubkey=APPROVAL_PUBKEY)
    assert raised.value.code == "not-a-token-file" and isinstance(raised.value, ValueError)
    run = cli("--format", "jsonl", "verify", "approval", str(sealed), "--pubkey", APPROVAL_PUBKEY)
    assert raised.value.errors == run.errors() and run.status == raised.value.exit_status
    with pytest.raises(sealkit.UsageError) as raised:
        sealkit.verify_tokens(Path(GETTING_STARTED), pubkey=APPROVAL_PUBKEY,
                              trusted_approvers="approvers")
    assert raised.value.code == "usage"
    with pytest.raises(sealkit.UsageError) as raised:
        sealkit.verify_tokens(Path(GETTING_STARTED), pubkey=APPROVAL_PUBKEY, target="ABC")
    assert raised.value.code == "bad-target"
    with pytest.raises(sealkit.UsageError) as raised:
        sealkit.verify_tokens(b"{}\n", pubkey=APPROVAL_PUBKEY, frame=b"{}\n")
    assert raised.value.code == "stdin-given-twice"
    short_key = APPROVAL_PUBKEY[:63]
    with pytest.raises(sealkit.Error) as raised:
        sealkit.verify_tokens(Path(GETTING_STARTED), pubkey=short_key)
    run = cli("--format", "jsonl", "verify", "approval", GETTING_STARTED, "--pubkey", short_key)
    assert raised.value.errors == run.errors()
    with pytest.raises(sealkit.UsageError):
        naive = datetime.datetime(2026, 8, 6, 7, 7)
        sealkit.verify_tokens(Path(GETTING_STARTED), pubkey=APPROVAL_PUBKEY, now=naive)
    empty = tmp_path / "empty.ndjson"
    empty.write_bytes(b"")
    records = sealkit.verify_tokens(empty, pubkey=APPROVAL_PUBKEY)
    # Nothing to check is a problem, never a pass.
    assert records.verdict is sealkit.Verdict.PROBLEMS
    assert [f["code"] for f in records.summary["file_findings"]] == ["no-tokens"]
    conforms(records)

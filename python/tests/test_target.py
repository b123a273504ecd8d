"""sealkit.target / target_capture over the vectors and fixtures the Rust tests use."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import sealkit
from conftest import ROOT, conforms, same_as_cli

VECTORS = ROOT / "testdata/vectors"


def test_dev_identity_vectors_all_profiles_two_servers() -> None:
    vectors = json.loads((VECTORS / "sealkit-dev-identities.json").read_text())["vectors"]
    assert len(vectors) == 36
    for vector in vectors:
        record = sealkit.target(vector["frame"].encode(), server=vector["server"])
        conforms([record])
        name = f"{vector['name']} (server {vector['server']!r})"
        assert record["subject"] == vector["subject"], name
        assert record["request_sha256"] == vector["request_sha256"], name
        assert record["identities"] == vector["identities"], name


def test_legacy_v3_effect_vectors() -> None:
    vectors = json.loads((VECTORS / "effect_v3_vectors.json").read_text())["vectors"]
    commitments = rejections = 0
    for vector in vectors:
        tool, arguments = vector["tool"], vector["arguments_json"]
        if vector["expect"] == "commitment":
            members = "" if arguments == "null" else f',"arguments":{arguments}'
            frame = (
                '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"'
                + tool + '"' + members + "}}"
            ).encode()
            commitments += 1
            if vector["name"] == "integer-18-digits-in-bound":
                # An identity as a value, but no binary64 reading: the frame is refused.
                with pytest.raises(sealkit.RefusedFrame) as refused:
                    sealkit.target(frame, server=vector["server"])
                assert refused.value.code == "number-not-binary64"
                continue
            record = sealkit.target(frame, server=vector["server"])
            assert record["identities"]["legacy"]["effect"] == vector["effect_commitment"]
        else:
            frame = (
                '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"'
                + tool + '","arguments":' + arguments + "}}"
            ).encode()
            expected = {
                "duplicate or escaped object key": (
                    "escaped-key" if "\\u" in arguments else "duplicate-key"
                ),
                "number exceeds significant-digit bound (18)": "too-many-digits",
                "unsafe numeric literal (exponent digits > 6)": "exponent-too-long",
            }[vector["reason"]]
            with pytest.raises(sealkit.RefusedFrame) as refused:
                sealkit.target(frame, server=vector["server"])
            assert refused.value.code == expected, vector["name"]
            rejections += 1
    assert (commitments, rejections) == (17, 5)


def test_legacy_vs_current_manifest_targets_and_digests() -> None:
    base = ROOT / "testdata/legacy-vs-current"
    manifest = json.loads((base / "manifest.json").read_text())
    guarded = unguarded = 0
    for receipt in manifest["receipts"]:
        step, era = receipt["step"], receipt["era"]
        if receipt["target_legacy"] is not None:
            guarded += 1
            expected = {
                "legacy": receipt["target_legacy"],
                "host": receipt["target_host"],
                "committed": receipt["target_committed_option_a"],
            }
        else:
            unguarded += 1
            expected = receipt["would_be_targets_if_guarded"]
        frame = (base / receipt["frame"]).read_bytes()
        try:
            record = sealkit.target(frame)
        except sealkit.RefusedFrame as refused:
            # F09: an uppercase traceparent, which W3C version 00 forbids.
            assert (step, refused.code) == ("L5", "invalid-traceparent")
            assert refused.jsonrpc_code == -32602
            conforms([refused.record])
            continue
        for profile in ("legacy", "host", "committed"):
            assert record["identities"][profile]["target"] == expected[profile], (era, step)
        assert record["subject"] == {
            "sha256": receipt["framed_subject_sha256"],
            "length": receipt["framed_subject_length"],
        }
        assert record["request_sha256"] == receipt["request_sha256"]
        if era == "new":
            assert record["canonical_request_sha256"] == receipt["canonical_request_sha256"]
        meta = receipt["meta_in_frame"]
        assert record["meta"]["keys"] == ([] if meta == "absent" else meta), step
    assert (guarded, unguarded) == (18, 8)


def test_worked_example_of_seal_host_formats() -> None:
    frame = (VECTORS / "getting-started-call.frame").read_bytes()
    assert len(frame) == 139
    record = sealkit.target(frame)
    assert record["identities"]["host"]["target"] == (
        "2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565"
    )


def refusal_fixtures():
    for path in sorted((ROOT / "testdata/refusals").glob("*.frame")):
        code, rest = path.name.split("--", 1)
        era = rest.split(".era-")[1][: -len(".frame")] if ".era-" in rest else "auto"
        yield pytest.param(path, code, era, id=path.stem)


@pytest.mark.parametrize(("path", "code", "era"), list(refusal_fixtures()))
def test_every_refusal_fixture_raises_its_code(path, code, era) -> None:
    frame = path.read_bytes()
    with pytest.raises(sealkit.RefusedFrame) as refused:
        sealkit.target(frame, era=era)
    error = refused.value
    assert error.code == code
    assert isinstance(error, sealkit.Error) and isinstance(error, ValueError)
    assert error.record["type"] == "refusal" and error.record["code"] == code
    assert error.jsonrpc_code == error.record["jsonrpc_code"]
    conforms([error.record])
    # The same refusal as the command's, for the same bytes.
    same_as_cli(sealkit.target_capture(frame, era=era), "target", "--era", era, "-", stdin=frame)


def test_a_frame_that_is_no_call_raises_not_a_tools_call() -> None:
    with pytest.raises(sealkit.NotAToolCall) as skipped:
        sealkit.target(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    assert skipped.value.code == "not-a-tools-call"
    assert skipped.value.record["kind"] == "notification"


def test_target_takes_exactly_one_frame() -> None:
    two = (VECTORS / "getting-started-call.frame").read_bytes() * 2
    for frames in (two, b""):
        with pytest.raises(sealkit.UsageError) as error:
            sealkit.target(frames)
        assert error.value.code == "frame-not-one-line"
    with pytest.raises(TypeError):
        sealkit.target("a path is not a frame")  # type: ignore[arg-type]


def test_capture_records_are_the_commands_bytes() -> None:
    sample = "testdata/captures/sample.jsonl"
    records = sealkit.target_capture(sample)
    assert [r["type"] for r in records] == ["skipped", "frame", "frame", "refusal", "skipped"]
    assert records.verdict is sealkit.Verdict.PROBLEMS and not records.ok
    same_as_cli(records, "target", sample)
    # Contents as bytes are standard input to the command (source "-").
    data = (ROOT / sample).read_bytes()
    from_bytes = sealkit.target_capture(data, server="srv-a", explain=True)
    assert {r["source"] for r in from_bytes} == {"-"}
    same_as_cli(from_bytes, "target", "--server", "srv-a", "--explain", "-", stdin=data)
    # Several paths, in order.
    both = sealkit.target_capture([sample, Path("testdata/vectors/getting-started-call.frame")])
    same_as_cli(both, "target", sample, "testdata/vectors/getting-started-call.frame")


def test_tool_spec_adds_typed_targets() -> None:
    spec, capture = "testdata/typed/tool-spec.json", "testdata/typed/typed-capture.jsonl"
    records = sealkit.target_capture(capture, tool_spec=spec)
    same_as_cli(records, "target", "--tool-spec", spec, capture)
    assert any("typed" in r.get("identities", {}) for r in records)


def test_era_forced_and_an_unknown_era_is_a_usage_error() -> None:
    frame = (VECTORS / "getting-started-call.frame").read_bytes()
    with pytest.raises(sealkit.RefusedFrame) as refused:
        sealkit.target(frame, era="2026-07-28")
    assert refused.value.code == "meta-required"
    with pytest.raises(sealkit.UsageError) as usage:
        sealkit.target(frame, era="1999")
    assert usage.value.code == "usage" and "1999" in usage.value.message

"""sealkit's checks, called in-process.

Each function runs the same code as the ``sealkit`` command with ``--format jsonl`` (the
options are the command's, under Python names) and returns the records it prints, parsed,
with the verdict its exit status gives. Nothing is rendered twice: the records are the
command's own bytes (``Records.raw``).

Inputs follow one rule: ``bytes`` are contents; ``str`` and :class:`os.PathLike` are paths.
The command reads in-memory contents as its standard input, which it reads once: at most one
argument of a call may be ``bytes`` (``UsageError``, code ``stdin-given-twice``, otherwise).
Every call releases the GIL while sealkit works.
"""

from __future__ import annotations

import datetime
import os
from typing import Iterable, List, Optional, Union

from . import _errors
from ._native import run as _run
from ._records import AuditStream, Record, Records, check

__all__ = [
    "target",
    "target_capture",
    "verify_receipt",
    "verify_tokens",
    "verify_chain",
    "audit",
    "evidence_ref",
    "evidence_verify",
]

#: A path: ``str`` or :class:`os.PathLike`.
StrPath = Union[str, "os.PathLike[str]"]
#: An input given by path, or its contents as ``bytes``.
Input = Union[bytes, bytearray, memoryview, str, "os.PathLike[str]"]
#: A time: Unix milliseconds, ``"now"`` or RFC 3339 text, or an aware ``datetime``.
Time = Union[int, str, datetime.datetime]


class _Command:
    """One command line being built: ``sealkit --format jsonl SUBCOMMAND …``."""

    def __init__(self, *subcommand: str) -> None:
        self.options: List[str] = ["sealkit", "--format", "jsonl", *subcommand]
        self.positionals: List[str] = []
        self.stdin: Optional[bytes] = None

    def option(self, name: str, value: Optional[object]) -> None:
        if value is not None:
            # `--name=value`: a value starting with `-` stays a value.
            self.options.append(f"{name}={_text(value)}")

    def flag(self, name: str, on: bool) -> None:
        if on:
            self.options.append(name)

    def input(self, value: Input) -> str:
        """The command-line word for an input: `-` for contents (read as standard input),
        else the path (a path spelled `-` is the file of that name)."""
        if isinstance(value, (bytes, bytearray, memoryview)):
            if self.stdin is None:
                self.stdin = bytes(value)
            # A second `-` is refused by the command itself (stdin-given-twice).
            return "-"
        if isinstance(value, (str, os.PathLike)):
            path = os.fsdecode(os.fspath(value))
            return os.path.join(".", path) if path == "-" else path
        raise TypeError(
            f"expected bytes (contents) or a path (str or os.PathLike), not {type(value).__name__}"
        )

    def inputs(self, values: Union[Input, Iterable[Input]]) -> List[str]:
        if isinstance(values, (bytes, bytearray, memoryview, str, os.PathLike)):
            return [self.input(values)]
        return [self.input(value) for value in values]

    def argv(self) -> List[str]:
        return [*self.options, "--", *self.positionals]

    def run(self) -> Records:
        status, raw, errors = _run(self.argv(), self.stdin)
        return check(status, raw, errors)


def _text(value: object) -> str:
    if isinstance(value, bool):
        raise TypeError("expected a value, not a bool")
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            raise _errors.UsageError(
                "usage",
                "a naive datetime names no instant: give one with a tzinfo (e.g. UTC)",
            )
        delta = value - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
        return str(delta // datetime.timedelta(milliseconds=1))
    if isinstance(value, os.PathLike):
        return os.fsdecode(os.fspath(value))
    return str(value)


def _target_command(
    server: str, era: str, tool_spec: Optional[StrPath], explain: bool
) -> _Command:
    command = _Command("target")
    command.option("--server", server)
    command.option("--era", era)
    command.option("--tool-spec", None if tool_spec is None else command.input(tool_spec))
    command.flag("--explain", explain)
    return command


def target(
    frame: Union[bytes, bytearray, memoryview],
    *,
    server: str = "",
    era: str = "auto",
    tool_spec: Optional[StrPath] = None,
    explain: bool = False,
) -> Record:
    """The identities Seal derives for one captured JSON-RPC frame.

    ``frame`` is the frame's exact bytes, its LF included as it was on the wire (the
    exact-frame subject covers it). ``server`` is the operator's server identity (Seal's
    ``server`` setting), ``era`` ``"auto"``, ``"legacy"`` or ``"2026-07-28"``; with
    ``tool_spec`` (a JSON file of tool versions and manifest digests) a frame carrying
    ``params.action`` also gets its V2 typed target; ``explain`` adds the framed parts.

    Returns the ``frame`` record ``sealkit target --format jsonl`` prints: ``era``, ``tool``,
    ``subject``, ``request_sha256``, ``meta``, ``identities`` (``committed``, ``host`` and
    ``legacy``, each with ``effect`` and ``target``), ``warnings``.

    Raises :class:`RefusedFrame` (``err.code`` is the refusal code, e.g.
    ``"duplicate-key"``) when Seal refuses the frame, :class:`NotAToolCall` when it is not a
    ``tools/call`` request, and :class:`UsageError` (``frame-not-one-line``) unless
    ``frame`` holds exactly one frame.

    >>> frame = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"db.execute","arguments":{"sql":"select 1"}}}\\n'
    >>> record = sealkit.target(frame)
    >>> record["tool"], record["era"]
    ('db.execute', 'legacy')
    >>> record["identities"]["host"]["target"]
    '2ee4ad7926c06421ac50c0e8783b440408ec29357032b22472d22d0a59568db8'
    """
    if not isinstance(frame, (bytes, bytearray, memoryview)):
        raise TypeError(f"frame: expected bytes, not {type(frame).__name__}")
    command = _target_command(server, era, tool_spec, explain)
    command.positionals = [command.input(frame)]
    try:
        records = command.run()
        count = len(records)
    except _errors.InvalidInput as error:
        # No frame at all is the command's `no-frames` (nothing to check); for target() it
        # is one frame short.
        if error.code != "no-frames":
            raise
        count = 0
    if count != 1:
        raise _errors.UsageError(
            "frame-not-one-line",
            f"the bytes hold {count} frames; target() takes exactly one "
            "(target_capture() reads a whole capture)",
        )
    record = records.record
    if record["type"] == "refusal":
        raise _errors.RefusedFrame(record)
    if record["type"] == "skipped":
        raise _errors.NotAToolCall(record)
    return record


def target_capture(
    capture: Union[Input, Iterable[StrPath]],
    *,
    server: str = "",
    era: str = "auto",
    tool_spec: Optional[StrPath] = None,
    explain: bool = False,
) -> Records:
    """Every frame of a capture (LF-terminated JSON-RPC frames): its contents as ``bytes``,
    a path, or several paths. One record per frame, as ``sealkit target --format jsonl``
    prints them: ``frame`` (computed), ``refusal`` (refused: a problem, verdict
    ``PROBLEMS``) or ``skipped`` (not a ``tools/call`` request). Options as :func:`target`.

    >>> records = sealkit.target_capture("testdata/captures/sample.jsonl")
    >>> [record["type"] for record in records]
    ['skipped', 'frame', 'frame', 'refusal', 'skipped']
    >>> records.verdict
    <Verdict.PROBLEMS: 1>
    """
    command = _target_command(server, era, tool_spec, explain)
    command.positionals = command.inputs(capture)
    return command.run()


def verify_receipt(
    receipt: Union[Input, Iterable[StrPath]],
    *,
    receipt_key: Optional[StrPath] = None,
    deny_warnings: bool = False,
) -> Records:
    """Every check of an authorization-decision receipt: its contents as ``bytes``, a path,
    or several paths. ``receipt_key`` is the installation's receipt key (64 hex digits, a
    raw 32-byte seed file or a public key file); without it no receipt authenticates.

    One ``receipt`` record per receipt (``status``: ``authenticated``, ``unpinned``,
    ``unsigned``, ``failed`` or ``unreadable``; ``checks``, ``verified`` and ``reported``
    fields, ``findings``); ``records.record`` is the one record of a single receipt. The
    verdict is ``PROBLEMS`` for any error finding (warnings too with ``deny_warnings``).

    >>> receipts = pathlib.Path("testdata/receipts/fixture-dir")
    >>> records = sealkit.verify_receipt(
    ...     sorted(receipts.glob("receipt-*.json")),
    ...     receipt_key="testdata/keys/fixture-dir-receipt.pub",  # kept apart from them
    ... )
    >>> [(r["status"], r["reported"]["verdict"]) for r in records]
    [('authenticated', 'BLOCK'), ('authenticated', 'ALLOW')]
    >>> records.verdict
    <Verdict.GOOD: 0>
    """
    command = _Command("verify", "receipt")
    command.option("--receipt-key", receipt_key)
    command.flag("--deny-warnings", deny_warnings)
    command.positionals = command.inputs(receipt)
    return command.run()


def verify_tokens(
    lines: Union[Input, Iterable[Union[str, bytes]]],
    *,
    pubkey: Optional[StrPath] = None,
    trusted_approvers: Optional[StrPath] = None,
    frame: Optional[Input] = None,
    target: Optional[str] = None,
    now: Optional[Time] = None,
    ttl: Optional[int] = None,
    deny_warnings: bool = False,
) -> Records:
    """ApprovalRecord v2 token lines checked with seal-host's rules, then their binding.

    ``lines`` is a token file: its contents (``bytes``), its path (``str`` or
    ``os.PathLike``), or its lines (an iterable of ``str`` or ``bytes``, each with or without
    its ``\\n``). Give the trusted key as ``pubkey`` (64 hex digits, an ``ssh-ed25519`` line
    or a public key file) or a ``trusted_approvers`` file, not both. ``frame`` (the exact
    frame, bytes or path), ``target`` (64 hex) and ``now`` (Unix milliseconds, ``"now"``,
    RFC 3339 text or an aware ``datetime``; freshness under ``ttl`` seconds, default 120)
    bind each token further.

    The records of ``sealkit verify approval --format jsonl``: one ``token`` record per
    line, a ``conflict`` per target whose allow stands beside a signed decline, then the
    ``summary``. The verdict is ``GOOD`` only when every line is accepted.

    >>> records = sealkit.verify_tokens(
    ...     pathlib.Path("testdata/approvals/approve-cli-getting-started.token.ndjson"),
    ...     pubkey="31debe55d37c722768b137131caa6087080b2e0b60b94bd785d14575cfa498bc",
    ...     frame="testdata/approvals/getting-started-call.frame",
    ...     now=1786000060000,
    ... )
    >>> [(token["line"], token["status"], token["binding"]["freshness"])
    ...  for token in records.of_type("token")]
    [(1, 'accepted', 'fresh')]
    >>> records.summary["accepted"], records.ok
    (1, True)
    """
    command = _Command("verify", "approval")
    command.option("--pubkey", pubkey)
    command.option("--trusted-approvers", trusted_approvers)
    command.option("--target", target)
    command.option("--now", now)
    command.option("--ttl", ttl)
    command.flag("--deny-warnings", deny_warnings)
    if isinstance(lines, (bytes, bytearray, memoryview, str, os.PathLike)):
        file = command.input(lines)
    else:
        file = command.input(_joined(lines))
    if frame is not None:
        command.option("--frame", command.input(frame))
    command.positionals = [file]
    return command.run()


def _joined(lines: Iterable[Union[str, bytes]]) -> bytes:
    joined = bytearray()
    for line in lines:
        data = line.encode() if isinstance(line, str) else bytes(line)
        joined += data
        if not data.endswith(b"\n"):
            joined += b"\n"
    return bytes(joined)


def verify_chain(
    path: Input,
    *,
    audit_lines: bool = False,
    head: Optional[str] = None,
    state: Optional[StrPath] = None,
) -> Records:
    """A sealed log (``seal-verifiable-record/v1``) verified entry by entry, or with
    ``audit_lines=True`` the head recomputed from raw audit lines; ``head`` is the head the
    chain must end at, ``state`` a ``.seal-audit-head.state`` file that must hold it.

    One ``chain`` record (``status`` ``ok`` or ``fail``, the recomputed ``head``), or a
    ``refused-file`` record for a log that names a member twice. Streams the file: memory
    does not grow with the log.

    >>> records = sealkit.verify_chain("testdata/receipts/chain/sealed.json")
    >>> records.record["status"], records.record["sealed"]["entries"], records.ok
    ('ok', 2, True)
    """
    command = _Command("verify", "chain")
    word = command.input(path)
    command.option("--head", head)
    command.option("--state", None if state is None else command.input(state))
    if audit_lines:
        command.option("--audit-lines", word)
    else:
        command.positionals = [word]
    return command.run()


def audit(
    paths: Union[StrPath, Iterable[StrPath]],
    *,
    receipt_key: Optional[StrPath] = None,
    trusted_approvers: Optional[StrPath] = None,
    jobs: Optional[int] = None,
    deny_warnings: bool = False,
) -> AuditStream:
    """Audits receipt directories (or files): every receipt checked, then the checks that
    span receipts (duplicates, counters, sessions, chain heads, missing receipts).

    Returns an iterator over the records of ``sealkit audit --format jsonl`` as they are
    written: a ``receipt`` record per receipt, ``finding`` records, the ``summary`` last.
    Records are streamed, not gathered: memory does not grow with the archive. ``jobs`` is
    the number of worker threads (default: the cores). After the last record, ``verdict``
    holds the verdict (``PROBLEMS`` for any error finding, or warning with
    ``deny_warnings``).

    >>> receipts = "testdata/receipts/legacy-vs-current/new/receipts"
    >>> key = "testdata/keys/legacy-vs-current-receipt.pub"  # kept apart from the receipts
    >>> stream = sealkit.audit(receipts, receipt_key=key)
    >>> records = list(stream)
    >>> records[-1]["type"], records[-1]["statuses"]["authenticated"]
    ('summary', 13)
    >>> stream.verdict
    <Verdict.GOOD: 0>
    >>> # The signing key lies beside the receipts it signs: a warning.
    >>> [(r["code"], r["severity"]) for r in records if r.get("code") == "signing-key-exposed"]
    [('signing-key-exposed', 'warning')]
    >>> strict = sealkit.audit(receipts, receipt_key=key, deny_warnings=True)
    >>> strict.verdict is None, list(strict)[-1]["type"], strict.verdict
    (True, 'summary', <Verdict.PROBLEMS: 1>)
    """
    command = _Command("audit")
    command.option("--receipt-key", receipt_key)
    command.option(
        "--trusted-approvers",
        None if trusted_approvers is None else command.input(trusted_approvers),
    )
    command.option("--jobs", jobs)
    command.flag("--deny-warnings", deny_warnings)
    if isinstance(paths, (str, os.PathLike)):
        command.positionals = [command.input(paths)]
    else:
        command.positionals = [command.input(path) for path in paths]
    for word in command.positionals:
        if word == "-":
            raise TypeError("audit: paths are paths (str or os.PathLike), not bytes")
    return AuditStream(command.argv())


def evidence_ref(
    receipt: Union[Input, Iterable[StrPath]],
    *,
    receipt_key: Optional[StrPath] = None,
) -> Records:
    """The ``evidenceRef`` object naming a receipt in a trust annotation (RFC 8785 digest,
    the receipt's ``ref``): one ``evidence-ref`` record per receipt, as
    ``sealkit evidence ref --format jsonl`` prints. Only a receipt that authenticates under
    ``receipt_key`` gets a reference, and none under a key read from beside it
    (``receipt-key-in-evidence``); the others are problems.

    >>> receipts = pathlib.Path("testdata/receipts/legacy-vs-current/new/receipts")
    >>> first = sorted(receipts.glob("receipt-*.json"))[0]
    >>> record = sealkit.evidence_ref(
    ...     first, receipt_key="testdata/keys/legacy-vs-current-receipt.pub"
    ... ).record
    >>> record["status"], sorted(record["evidenceRef"])
    ('authenticated', ['canonicalization', 'digest', 'ref', 'schema', 'type'])
    """
    command = _Command("evidence", "ref")
    command.option("--receipt-key", receipt_key)
    command.positionals = command.inputs(receipt)
    return command.run()


def evidence_verify(
    *,
    evidence: Union[StrPath, Iterable[StrPath]],
    frames: Union[Input, Iterable[StrPath]] = (),
    refs: Union[Input, Iterable[StrPath]] = (),
    receipt_key: Optional[StrPath] = None,
    annotation_key: Optional[str] = None,
) -> Records:
    """Checks the ``evidenceRef`` references that captured responses carry (``frames``:
    captures of requests and responses) or that reference files list (``refs``), against
    local ``evidence`` (directories a ``ref`` is resolved under, or files). One
    ``evidence-check`` record per reference, as ``sealkit evidence verify --format jsonl``
    prints; the verdict is ``GOOD`` only if every reference verified. A ``receipt_key`` read
    from inside ``evidence`` is a problem: a ``finding`` record
    (``receipt-key-in-evidence``) comes first, and the verdict is not ``GOOD``.

    >>> receipts = "testdata/receipts/legacy-vs-current/new/receipts"
    >>> records = sealkit.evidence_verify(
    ...     frames="testdata/evidence/annotated.capture",
    ...     evidence=receipts,
    ...     receipt_key="testdata/keys/legacy-vs-current-receipt.pub",
    ... )
    >>> {record["status"] for record in records}, records.ok
    ({'verified'}, True)
    """
    command = _Command("evidence", "verify")
    for name, values in (("--frames", frames), ("--refs", refs), ("--evidence", evidence)):
        for word in command.inputs(values):
            command.option(name, word)
    command.option("--receipt-key", receipt_key)
    command.option("--annotation-key", annotation_key)
    return command.run()

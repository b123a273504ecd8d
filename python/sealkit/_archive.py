"""Archive audits in three steps that can run apart: a plan, a map, a reduce.

``sealkit audit`` itself runs as walk → map → reduce (docs/receipts.md): the walk lists the
files, the map verifies each file alone and keeps compact facts of it, the reduce runs the
checks that span receipts (duplicates, counters, sessions, chain heads, released calls whose
receipt is missing) over those facts in the walk's order. These functions expose the same
three steps, so the map can run on other processes or machines (``sealkit.dask``, or Ray,
Spark, a job queue) and the reduce still gives the command's findings exactly:

>>> plan = sealkit.audit_plan("testdata/receipts/legacy-vs-current/new/receipts",
...                           receipt_key="testdata/keys/legacy-vs-current-receipt.pub")
>>> facts = [sealkit.audit_partition(part, receipt_key=plan.receipt_key)
...          for part in plan.partitions(3)]
>>> reduction = sealkit.audit_reduce(plan, facts)
>>> records = list(reduction)
>>> records[-1]["type"], records[-1]["receipts"], reduction.verdict
('summary', 13, <Verdict.GOOD: 0>)
>>> [r["path"][-25:] for r in records if r.get("code") == "signing-key-exposed"]
['.seal-receipt-ed25519.key']
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable, Iterable, Iterator, List, Optional, Tuple, Union

from . import _errors
from . import _native
from ._records import Record, Verdict

__all__ = ["AuditPlan", "AuditReduction", "audit_plan", "audit_partition", "audit_reduce"]

StrPath = Union[str, "os.PathLike[str]"]


def _raise(failure: Exception) -> "_errors.Error":
    text, io = failure.args
    return _errors.from_command(text, io)


class AuditPlan:
    """The listing of an archive audit: its files in the order the audit reports them, and
    (kept on the driver, never shipped) each directory's state files and what the walk
    found. Made by :func:`audit_plan` (local paths) or :meth:`AuditPlan.listed` (URLs)."""

    __slots__ = ("native", "roots")

    def __init__(self, native: Any, roots: List[str]) -> None:
        self.native = native
        #: What was audited, as given.
        self.roots: List[str] = roots

    @classmethod
    def listed(
        cls,
        roots: Iterable[str],
        files: Iterable[str],
        read: Callable[[str, int], bytes],
        *,
        receipt_key: Optional[StrPath] = None,
    ) -> "AuditPlan":
        """A plan over files listed elsewhere (object storage URLs), in the order given.
        ``read(path, limit)`` returns the bytes of a state file (``.seal-audit-head.state``,
        ``.seal-operation-state.json``: at most ``limit`` bytes are used)."""
        roots = [os.fspath(root) for root in roots]
        try:
            native = _native.AuditPlan.listed(
                roots, [os.fspath(f) for f in files], read, _key(receipt_key)
            )
        except _native.Failure as failure:
            raise _raise(failure) from None
        return cls(native, roots)

    def __len__(self) -> int:
        return len(self.native)

    @property
    def paths(self) -> List[str]:
        """Every listed path, in order (each is one partition entry)."""
        paths: List[str] = self.native.paths(0, len(self.native))
        return paths

    def partitions(self, count: int) -> List[List[str]]:
        """The paths in ``count`` contiguous partitions of near-equal size (fewer if there
        are fewer files), in order: reduce their facts in this order."""
        total = len(self.native)
        count = max(1, min(int(count), total or 1))
        bounds = [total * n // count for n in range(count + 1)]
        return [self.native.paths(bounds[n], bounds[n + 1]) for n in range(count)]

    @property
    def receipt_key(self) -> Optional[str]:
        """The pinned receipt key as 64 hex digits (what mappers elsewhere are given: they
        may not have the key's file), or None."""
        key: Optional[str] = self.native.receipt_key_hex
        return key


def _key(receipt_key: Optional[StrPath]) -> Optional[str]:
    return None if receipt_key is None else os.fsdecode(os.fspath(receipt_key))


def audit_plan(
    paths: Union[StrPath, Iterable[StrPath]],
    *,
    receipt_key: Optional[StrPath] = None,
    jobs: Optional[int] = None,
) -> AuditPlan:
    """Walks receipt directories (or files) as ``sealkit audit`` does: sorted, without
    following links, each directory once, its state files read, each file compared with the
    pinned key's. Raises like :func:`sealkit.audit` when a root cannot be read."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    roots = [os.fsdecode(os.fspath(p)) for p in paths]
    try:
        native = _native.AuditPlan.walk(roots, _key(receipt_key), jobs or os.cpu_count() or 1)
    except _native.Failure as failure:
        raise _raise(failure) from None
    return AuditPlan(native, roots)


def audit_partition(
    files: Iterable[Union[StrPath, Tuple[StrPath, bytes]]],
    *,
    receipt_key: Optional[StrPath] = None,
    trusted_approvers: Optional[StrPath] = None,
    jobs: int = 1,
) -> bytes:
    """The map: verifies each file alone (the receipt checks of ``sealkit audit``, signatures
    checked in batches under the pinned key) and returns the facts the reduce needs, as
    bytes (picklable, about 0.4 KB a receipt). ``files`` are paths, or ``(path, contents)``
    pairs for files read elsewhere (object storage). ``jobs`` threads work on it; the GIL is
    released throughout."""
    paths: List[str] = []
    contents: List[bytes] = []
    for file in files:
        if isinstance(file, tuple):
            path, data = file
            paths.append(os.fsdecode(os.fspath(path)))
            contents.append(bytes(data))
        else:
            paths.append(os.fsdecode(os.fspath(file)))
    if contents and len(contents) != len(paths):
        raise TypeError("audit_partition: give every file as a path, or every one with its contents")
    try:
        return _native.audit_partition(
            paths,
            contents if contents else None,
            _key(receipt_key),
            None if trusted_approvers is None else os.fspath(trusted_approvers),
            jobs,
        )
    except _native.Failure as failure:
        raise _raise(failure) from None


class AuditReduction(Iterator[Record]):
    """The records of a reduced audit as they are made: a ``finding`` record for every
    finding (a receipt's own findings included, with its path), then the ``summary``, as
    ``sealkit audit --format jsonl`` prints them. ``verdict`` is set after the last."""

    def __init__(self, plan: AuditPlan, facts: Iterable[bytes], deny_warnings: bool) -> None:
        self._plan = plan
        self._facts = iter(facts)
        self._deny_warnings = deny_warnings
        self._reducer: Any = None
        self._ready: List[Record] = []
        self._done = False
        #: ``Verdict.GOOD`` or ``Verdict.PROBLEMS`` once every record was read, else None.
        self.verdict: Optional[Verdict] = None

    def __iter__(self) -> "AuditReduction":
        return self

    def __next__(self) -> Record:
        while not self._ready:
            if self._done:
                raise StopIteration
            self._step()
        return self._ready.pop(0)

    def _step(self) -> None:
        try:
            if self._reducer is None:
                self._reducer = _native.AuditReducer(self._plan.native)
            facts = next(self._facts, None)
            if facts is None:
                raw, status = self._reducer.finish(self._deny_warnings)
                self._done = True
                self.verdict = Verdict(status)
            else:
                raw = self._reducer.add(facts)
        except _native.Failure as failure:
            self._done = True
            raise _raise(failure) from None
        self._ready.extend(json.loads(line) for line in raw.split(b"\n") if line)


def audit_reduce(
    plan: AuditPlan, facts: Iterable[bytes], *, deny_warnings: bool = False
) -> AuditReduction:
    """The reduce: the facts of ``plan``'s partitions, in the plan's order (each as
    :func:`audit_partition` returned it), become the audit's findings and summary. Facts
    out of order, from another plan, or short of a partition raise ``sealkit.Error`` (code
    ``facts-mismatch``) rather than give a wrong audit. Lazy: each partition's facts are
    read when the records before them have been consumed."""
    return AuditReduction(plan, facts, deny_warnings)

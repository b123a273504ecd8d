"""What a call returns: the records ``sealkit --format jsonl`` prints, and its verdict."""

from __future__ import annotations

import enum
import json
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union, overload

from . import _errors
from ._native import Stream

__all__ = ["Verdict", "Records", "AuditStream"]

Record = Dict[str, Any]


class Verdict(enum.IntEnum):
    """The verdict of a call; its value is the exit status ``sealkit`` gives for it."""

    #: Everything was checked and nothing is wrong (exit status 0).
    GOOD = 0
    #: Everything asked for was checked and at least one problem was found (exit status 1).
    PROBLEMS = 1
    #: Something could not be checked (exit status 2; the call raises :class:`sealkit.Error`).
    UNCHECKED = 2


def _parse(raw: bytes) -> List[Record]:
    # Each record is one line: JSON escapes every line break inside a value.
    return [json.loads(line) for line in raw.split(b"\n") if line]


class Records(Sequence[Record]):
    """The records of one call, in order, with the call's :class:`Verdict`.

    Each record is a ``dict`` with ``"type"`` first: exactly the objects
    ``sealkit --format jsonl`` prints for the same inputs (schemas in ``docs/schema/v1``).
    ``raw`` holds those JSON Lines byte for byte. A ``Records`` is a sequence: index it,
    iterate it, take its ``len``. It is never truthy or falsy by its verdict: ask ``ok``.
    """

    __slots__ = ("raw", "records", "verdict")

    def __init__(self, raw: bytes, verdict: Verdict) -> None:
        #: The JSON Lines the command prints, byte for byte.
        self.raw: bytes = raw
        #: The records, parsed.
        self.records: List[Record] = _parse(raw)
        #: The verdict; ``int(verdict)`` is the command's exit status.
        self.verdict: Verdict = verdict

    @property
    def ok(self) -> bool:
        """Whether everything was checked and nothing is wrong (``Verdict.GOOD``)."""
        return self.verdict is Verdict.GOOD

    @property
    def exit_status(self) -> int:
        """The exit status the ``sealkit`` command gives for the same inputs."""
        return int(self.verdict)

    @property
    def record(self) -> Record:
        """The one record of a call that has exactly one (``ValueError`` otherwise)."""
        if len(self.records) != 1:
            raise ValueError(f"{len(self.records)} records, not one")
        return self.records[0]

    def of_type(self, kind: str) -> List[Record]:
        """The records whose ``"type"`` is ``kind`` (``"token"``, ``"summary"``…)."""
        return [record for record in self.records if record["type"] == kind]

    @property
    def summary(self) -> Optional[Record]:
        """The ``summary`` record, for the calls that end with one."""
        found = self.of_type("summary")
        return found[-1] if found else None

    @overload
    def __getitem__(self, index: int) -> Record: ...

    @overload
    def __getitem__(self, index: slice) -> List[Record]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[Record, List[Record]]:
        return self.records[index]

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records)

    def __bool__(self) -> bool:
        raise TypeError(
            "a Records is neither true nor false: ask .ok, .verdict or len()"
        )

    def __repr__(self) -> str:
        return f"<Records {len(self.records)} records, {self.verdict.name}>"


def check(status: int, raw: bytes, errors: List[Tuple[str, bool]]) -> Records:
    """A finished command's records, or its first error raised (holding the records)."""
    records = Records(raw, Verdict(status))
    if errors:
        raise _error(errors, records)
    return records


def _error(errors: List[Tuple[str, bool]], records: Any) -> _errors.Error:
    first = _errors.from_command(*errors[0])
    first.errors = [json.loads(text) for text, _ in errors]
    first.records = records
    return first


class AuditStream(Iterator[Record]):
    """The records of :func:`sealkit.audit` as the audit writes them: each ``receipt``
    record, each ``finding``, then the ``summary`` (what ``sealkit audit --format jsonl``
    prints, in its order). Memory does not grow with the archive: the audit runs on a thread
    of its own and waits while records are not read.

    ``verdict`` is ``None`` until the last record has been read. An error that stopped the
    audit is raised by the iteration, after the records written before it. Leaving the loop
    early (or calling :meth:`close`) stops the audit at its next record.
    """

    def __init__(self, argv: List[str]) -> None:
        self._stream: Optional[Stream] = Stream(argv)
        self._pending: List[Record] = []
        self._at = 0
        #: The verdict, once every record has been read.
        self.verdict: Optional[Verdict] = None

    def __iter__(self) -> "AuditStream":
        return self

    def __next__(self) -> Record:
        while self._at >= len(self._pending):
            stream = self._stream
            if stream is None:
                raise StopIteration
            chunk = stream.next_chunk()
            if chunk is None:
                self._stream = None
                status, errors = stream.finish()
                self.verdict = Verdict(status)
                if errors:
                    raise _error(errors, None)
                raise StopIteration
            self._pending = _parse(chunk)
            self._at = 0
        record = self._pending[self._at]
        self._at += 1
        return record

    def close(self) -> None:
        """Stops reading: the audit stops at its next record."""
        self._stream = None
        self._pending = []

    def __enter__(self) -> "AuditStream":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def ok(self) -> bool:
        """Whether the audit has ended with every receipt checked and good."""
        return self.verdict is Verdict.GOOD

"""Type stubs for sealkit's extension module (the bridge the API in ``sealkit`` uses)."""

from typing import Callable, List, Optional, Sequence, Tuple

__version__: str

def main(argv: Sequence[str]) -> int:
    """The ``sealkit`` program on this process's stdin, stdout and stderr; its exit status."""

def run(
    argv: Sequence[str], stdin: Optional[bytes] = None
) -> Tuple[int, bytes, List[Tuple[str, bool]]]:
    """Runs a command line in-process: exit status, stdout bytes, errors (JSON, is-I/O)."""

class Stream:
    """A command running on a thread of its own, its stdout read chunk by chunk."""

    def __init__(self, argv: Sequence[str], stdin: Optional[bytes] = None) -> None: ...
    def next_chunk(self) -> Optional[bytes]:
        """The next chunk of whole JSON lines, or None after the last."""
    def finish(self) -> Tuple[int, List[Tuple[str, bool]]]:
        """The exit status and errors, once every chunk has been read."""

class Failure(Exception):
    """An error of the audit's plan, map or reduce: args are (JSON error object, is-I/O)."""

class AuditPlan:
    """The listing of an archive audit (the command's walk, or files listed elsewhere)."""

    @staticmethod
    def walk(roots: Sequence[str], receipt_key: Optional[str] = None, jobs: int = 1) -> "AuditPlan": ...
    @staticmethod
    def listed(
        roots: Sequence[str],
        files: Sequence[str],
        read: Callable[[str, int], bytes],
        receipt_key: Optional[str] = None,
    ) -> "AuditPlan": ...
    def __len__(self) -> int: ...
    def paths(self, start: int, end: int) -> List[str]: ...
    @property
    def receipt_key_hex(self) -> Optional[str]: ...

def audit_partition(
    paths: Sequence[str],
    contents: Optional[Sequence[bytes]] = None,
    receipt_key: Optional[str] = None,
    trusted_approvers: Optional[str] = None,
    jobs: int = 1,
) -> bytes:
    """The audit's map over `paths`: their facts as bytes."""

class AuditReducer:
    """The audit's reduce over one plan: facts in, JSON lines of records out."""

    def __init__(self, plan: AuditPlan) -> None: ...
    def add(self, facts: bytes) -> bytes: ...
    def finish(self, deny_warnings: bool = False) -> Tuple[bytes, int]: ...
    def added(self) -> int: ...

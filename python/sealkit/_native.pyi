"""Type stubs for sealkit's extension module (the bridge the API in ``sealkit`` uses)."""

from typing import List, Optional, Sequence, Tuple

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

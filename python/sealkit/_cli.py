"""The ``sealkit`` command installed with the package: the library's own command-line entry,
run in-process, so it is the program the ``sealkit`` binary is (same parse, output, exit
statuses, closed-pipe behaviour)."""

from __future__ import annotations

import signal
import sys
from typing import NoReturn

from ._native import main as _main


def main() -> NoReturn:
    """Runs ``sealkit`` with this process's arguments and exits with its status."""
    # Python catches Ctrl-C to raise KeyboardInterrupt, which it could only do after sealkit
    # returned; the binary ends at once, and so does this. SIGPIPE is ignored by both (Python
    # and Rust programs set that up alike), so a closed stdout is sealkit's to handle.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(_main(sys.argv))


if __name__ == "__main__":
    main()

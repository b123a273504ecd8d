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
    # returned; the binary ends at once, and so does this. Python installs that handler only
    # when SIGINT was at its default; one ignored by whoever started us (a background job of a
    # script) stays ignored, as it does for the binary. SIGPIPE is ignored by both (Python and
    # Rust programs set that up alike), so a closed stdout is sealkit's to handle.
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(_main(sys.argv))


if __name__ == "__main__":
    main()

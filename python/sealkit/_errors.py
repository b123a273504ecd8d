"""The exceptions sealkit raises: each carries the stable code the command line shows."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence, Type

__all__ = [
    "Error",
    "UsageError",
    "InputError",
    "InvalidInput",
    "RefusedFrame",
    "NotAToolCall",
]


class Error(Exception):
    """sealkit could not give the result asked for.

    Every error has a stable kebab-case ``code`` (the one ``sealkit`` prints, e.g.
    ``"unreadable-file"``, ``"not-a-token-file"``, ``"duplicate-key"``), a ``message``, the
    ``causes`` under it (outermost first) and, where there is one, a ``help`` saying what to
    try instead: the members of the JSON error object the command prints on stderr
    (docs/json.md). ``exit_status`` is the status the command would exit with.

    Catch :class:`Error` for every sealkit failure; its subclasses also derive from the
    built-in exception a Python user would catch (``ValueError``, ``OSError``).
    """

    #: The exit status the ``sealkit`` command gives for this error.
    exit_status: int = 2

    def __init__(
        self,
        code: str,
        message: str,
        causes: Sequence[str] = (),
        help: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.code: str = code
        self.message: str = message
        self.causes: List[str] = list(causes)
        self.help: Optional[str] = help
        #: Every error of the call (the first is this one), as JSON error objects.
        self.errors: List[Dict[str, Any]] = [self.object()]
        #: What the call produced before it stopped (a :class:`sealkit.Records`), if anything.
        self.records: Any = None

    def object(self) -> Dict[str, Any]:
        """The JSON error object, as ``sealkit --format json`` prints it on stderr."""
        error: Dict[str, Any] = {
            "type": "error",
            "code": self.code,
            "message": self.message,
            "causes": list(self.causes),
        }
        if self.help is not None:
            error["help"] = self.help
        return error

    def __str__(self) -> str:
        return f"{self.message} [{self.code}]"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r})"

    def __reduce__(self) -> Any:
        # Picklable (to cross process boundaries, e.g. from a worker process), with its state.
        return (_rebuild, (type(self), self.__dict__))


def _rebuild(cls: Type[Error], state: Dict[str, Any]) -> Error:
    error = cls.__new__(cls)
    Exception.__init__(error, state.get("message", ""))
    error.__dict__.update(state)
    return error


class UsageError(Error, ValueError):
    """The call's arguments are what the command line would refuse (code ``usage``,
    ``stdin-given-twice``, ``bad-target``, ``frame-not-one-line``…)."""


class InputError(Error, OSError):
    """An input could not be read (a missing file, a directory given as a file, a read
    error): an operating-system error is among ``causes``."""

    def __str__(self) -> str:
        return Error.__str__(self)


class InvalidInput(Error, ValueError):
    """An input was read but is not what the call needs (not a token file, a malformed key,
    a tool specification that does not parse, a capture that is not UTF-8…)."""


class RefusedFrame(Error, ValueError):
    """:func:`sealkit.target`: Seal refuses the frame, so it has no identity.

    ``code`` is the refusal code (``duplicate-key``, ``meta-…``), ``jsonrpc_code`` the
    JSON-RPC error the host answers with, ``offset`` the byte offset in the frame, and
    ``record`` the ``refusal`` record ``sealkit target --format jsonl`` prints for it.
    """

    def __init__(self, record: Dict[str, Any]) -> None:
        super().__init__(record["code"], record["message"])
        self.record: Dict[str, Any] = record
        self.jsonrpc_code: int = record["jsonrpc_code"]
        self.offset: int = record["offset"]


class NotAToolCall(Error, ValueError):
    """:func:`sealkit.target`: the frame is not a ``tools/call`` request (a notification, a
    response, another method), so Seal derives no identity for it (code
    ``not-a-tools-call``). ``record`` is the ``skipped`` record ``sealkit target`` prints."""

    def __init__(self, record: Dict[str, Any]) -> None:
        method = record.get("method")
        what = f"{record['kind']} ({method})" if method else record["kind"]
        super().__init__(
            "not-a-tools-call",
            f"the frame is a {what}, not a tools/call request",
        )
        self.record: Dict[str, Any] = record


#: Codes of arguments the command line refuses as such (exit status 2).
_USAGE_CODES = frozenset(
    {"usage", "stdin-given-twice", "bad-target", "frame-not-one-line"}
)


def from_command(text: str, io: bool) -> Error:
    """The exception for one JSON error object the command gave (``io``: an I/O failure is
    among its causes)."""
    error = json.loads(text)
    code = error.get("code") or "error"
    cls: Type[Error]
    if code in _USAGE_CODES:
        cls = UsageError
    elif io or "unreadable" in code or code == "io-error":
        # An I/O failure under it, or a code that says an input could not be read
        # (`unreadable-file`, `unreadable-input`, `key-file-unreadable`…).
        cls = InputError
    else:
        cls = InvalidInput
    return cls(code, error["message"], error.get("causes", ()), error.get("help"))

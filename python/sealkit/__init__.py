"""sealkit: offline checks of the evidence around Seal-mediated MCP tool calls.

The in-process API of the ``sealkit`` command: each function runs the command's own code and
returns the records its ``--format jsonl`` prints (docs/schema/v1), with the verdict its exit
status gives. Errors raise :class:`sealkit.Error` subclasses carrying the command's stable
code. ``sealkit.audit_plan`` / ``audit_partition`` / ``audit_reduce`` are the audit's walk, map
and reduce as separate steps, and ``sealkit.dask`` runs them on a Dask cluster. See
docs/python.md.
"""

from __future__ import annotations

from ._api import (
    audit,
    evidence_ref,
    evidence_verify,
    target,
    target_capture,
    verify_chain,
    verify_receipt,
    verify_tokens,
)
from ._archive import (
    AuditPlan,
    AuditReduction,
    audit_partition,
    audit_plan,
    audit_reduce,
)
from ._errors import (
    Error,
    InputError,
    InvalidInput,
    NotAToolCall,
    RefusedFrame,
    UsageError,
)
from ._native import __version__
from ._records import AuditStream, Records, Verdict

__all__ = [
    "__version__",
    "target",
    "target_capture",
    "verify_receipt",
    "verify_tokens",
    "verify_chain",
    "audit",
    "audit_plan",
    "audit_partition",
    "audit_reduce",
    "AuditPlan",
    "AuditReduction",
    "evidence_ref",
    "evidence_verify",
    "Records",
    "AuditStream",
    "Verdict",
    "Error",
    "UsageError",
    "InputError",
    "InvalidInput",
    "RefusedFrame",
    "NotAToolCall",
]

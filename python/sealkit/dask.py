"""Archive audits on Dask (``dask.distributed``): ``sealkit audit``'s map on the workers,
its reduce here.

>>> from dask.distributed import Client, LocalCluster
>>> import sealkit.dask
>>> with LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster, \\
...         Client(cluster) as client:                              # doctest: +SKIP
...     audit = sealkit.dask.audit(["/archive/host-a", "/archive/host-b"],
...                                receipt_key="installation-receipt.pub", client=client)
...     problems = [r for r in audit if r["type"] == "finding" and r["severity"] == "error"]
...     print(audit.verdict)

The driver walks the archive (local paths: the command's own walk; URLs: an fsspec listing),
cuts its files into contiguous partitions, and each worker verifies a partition in-process
with :func:`sealkit.audit_partition` (any fsspec URL read through fsspec on the worker). The
facts come back in order and :func:`sealkit.audit_reduce` runs every check that spans receipts
over them, so a problem that straddles two partitions (a copy in another partition, a counter
reused, a chain head, a deleted receipt) is found, and the findings are those of
``sealkit audit --format json`` over the same files. See docs/python.md, "Archives on Dask".
"""

from __future__ import annotations

import collections
import os
import tempfile
from typing import Any, Deque, Dict, Iterable, Iterator, List, Optional, Union

from ._archive import AuditPlan, AuditReduction, audit_partition, audit_plan, audit_reduce

__all__ = ["audit", "plan"]

StrPath = Union[str, "os.PathLike[str]"]


def _is_url(path: str) -> bool:
    return "://" in path


def plan(
    paths_or_urls: Union[StrPath, Iterable[StrPath]],
    *,
    receipt_key: Optional[StrPath] = None,
    storage_options: Optional[Dict[str, Any]] = None,
) -> AuditPlan:
    """The audit's listing: local paths walked as ``sealkit audit`` walks them; URLs
    (``s3://bucket/receipts``, ``gs://…``, ``file://…``, any fsspec protocol) listed with
    fsspec, every file under each in name order, the state files read here."""
    if isinstance(paths_or_urls, (str, os.PathLike)):
        paths_or_urls = [paths_or_urls]
    roots = [os.fsdecode(os.fspath(p)) for p in paths_or_urls]
    if not any(_is_url(root) for root in roots):
        return audit_plan(roots, receipt_key=receipt_key)
    import fsspec  # type: ignore[import-untyped]

    options = storage_options or {}
    files: List[str] = []
    for root in roots:
        fs, stripped = fsspec.core.url_to_fs(root, **options)
        found = sorted(fs.find(stripped)) if fs.isdir(stripped) else [stripped]
        files.extend(fs.unstrip_protocol(path) for path in found)

    def read(url: str, limit: int) -> bytes:
        with fsspec.open(url, "rb", **options) as file:
            data: bytes = file.read(limit + 1)
            return data

    return AuditPlan.listed(roots, files, read, receipt_key=receipt_key)


def _map(
    paths: List[str],
    receipt_key: Optional[str],
    approvers: Optional[bytes],
    storage_options: Optional[Dict[str, Any]],
) -> bytes:
    """One partition on a worker: its files read (through fsspec for URLs) and mapped."""
    files: List[Any] = list(paths)
    if paths and _is_url(paths[0]):
        import fsspec

        fs, _ = fsspec.core.url_to_fs(paths[0], **(storage_options or {}))
        contents = fs.cat([fs._strip_protocol(p) for p in paths])
        files = [(p, contents[fs._strip_protocol(p)]) for p in paths]
    if approvers is None:
        return audit_partition(files, receipt_key=receipt_key)
    with tempfile.NamedTemporaryFile(suffix=".approvers") as listing:
        listing.write(approvers)
        listing.flush()
        return audit_partition(files, receipt_key=receipt_key, trusted_approvers=listing.name)


def _in_order(client: Any, function: Any, parts: List[List[str]], window: int, **kw: Any) -> Iterator[bytes]:
    """Each partition's facts, in order, with at most ``window`` partitions submitted and not
    yet reduced (so the facts held at once do not grow with the archive)."""
    pending: Deque[Any] = collections.deque()
    submitted = 0
    while submitted < len(parts) or pending:
        while submitted < len(parts) and len(pending) < window:
            pending.append(client.submit(function, parts[submitted], pure=False, **kw))
            submitted += 1
        future = pending.popleft()
        facts = future.result()
        future.release()
        yield facts


def audit(
    paths_or_urls: Union[StrPath, Iterable[StrPath]],
    *,
    partitions: Optional[int] = None,
    client: Any = None,
    receipt_key: Optional[StrPath] = None,
    trusted_approvers: Optional[StrPath] = None,
    deny_warnings: bool = False,
    storage_options: Optional[Dict[str, Any]] = None,
) -> AuditReduction:
    """Audits an archive on a Dask cluster: the records of ``sealkit audit --format jsonl``
    that are not per-receipt (a ``finding`` record for every finding, a receipt's own
    included, then the ``summary``), as an iterator; ``verdict`` after the last.

    ``partitions`` (default: four per worker thread, at least one per 20,000 files) sets how
    the files are cut; ``client`` is a ``dask.distributed.Client`` (default: the current
    one). ``receipt_key`` is read here and given to the workers as hex; a
    ``trusted_approvers`` file is read here and its bytes given to them.
    """
    from distributed import get_client

    client = client or get_client()
    listing = plan(paths_or_urls, receipt_key=receipt_key, storage_options=storage_options)
    threads = sum(client.nthreads().values()) or 1
    count = partitions or max(4 * threads, -(-len(listing) // 20_000))
    parts = listing.partitions(count)
    approvers = None
    if trusted_approvers is not None:
        with open(trusted_approvers, "rb") as file:
            approvers = file.read()
    facts = _in_order(
        client,
        _map,
        parts,
        window=2 * threads + 2,
        receipt_key=listing.receipt_key,
        approvers=approvers,
        storage_options=storage_options,
    )
    return audit_reduce(listing, facts, deny_warnings=deny_warnings)

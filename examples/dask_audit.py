#!/usr/bin/env python3
"""Audits a receipt archive on a Dask cluster and exits as `sealkit audit` does.

    # A cluster on this machine (N worker processes):
    python examples/dask_audit.py --workers 2 --receipt-key installation.pub /archive/host-*
    # An existing cluster, an archive in object storage (fsspec: s3fs, gcsfs, adlfs…):
    python examples/dask_audit.py --scheduler tcp://scheduler:8786 \
        --receipt-key installation.pub s3://evidence/receipts/host-a s3://evidence/receipts/host-b

Prints every error finding (and, with --deny-warnings, every warning) as `code path: message`,
then the summary line, and exits 0 (good), 1 (problems found) or 2 (could not check). With
--jsonl it prints the records instead, as `sealkit audit --format jsonl` prints its findings
and summary. See docs/python.md, "Archives on Dask".
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List, Optional

import sealkit
import sealkit.dask


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archive", nargs="+", help="receipt directories, files or fsspec URLs")
    parser.add_argument("--receipt-key", help="the installation's receipt key (hex or key file)")
    parser.add_argument("--trusted-approvers", help="a trusted-approvers list")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--scheduler", help="the address of a running Dask scheduler")
    where.add_argument("--workers", type=int, default=2, help="local worker processes (default 2)")
    parser.add_argument("--partitions", type=int, help="partitions (default: 4 per worker thread)")
    parser.add_argument("--deny-warnings", action="store_true", help="warnings are problems too")
    parser.add_argument("--jsonl", action="store_true", help="print the records as JSON lines")
    parser.add_argument(
        "--storage-option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an fsspec storage option (e.g. anon=true, endpoint_url=…); repeatable",
    )
    return parser.parse_args()


def storage_options(pairs: List[str]) -> Optional[Dict[str, Any]]:
    options: Dict[str, Any] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        options[name] = {"true": True, "false": False}.get(value.lower(), value)
    return options or None


def main() -> int:
    from distributed import Client, LocalCluster

    args = parse()
    if args.scheduler:
        client = Client(args.scheduler)
        cluster = None
    else:
        cluster = LocalCluster(
            n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    try:
        audit = sealkit.dask.audit(
            args.archive,
            client=client,
            partitions=args.partitions,
            receipt_key=args.receipt_key,
            trusted_approvers=args.trusted_approvers,
            deny_warnings=args.deny_warnings,
            storage_options=storage_options(args.storage_option),
        )
        shown = {"error", "warning"} if args.deny_warnings else {"error"}
        summary: Dict[str, Any] = {}
        for record in audit:
            if args.jsonl:
                print(json.dumps(record))
            elif record["type"] == "finding" and record["severity"] in shown:
                print(f"{record['code']} {record.get('path', '-')!r}: {record['message']!r}")
            if record["type"] == "summary":
                summary = record
    except sealkit.Error as error:
        print(f"sealkit: {error}", file=sys.stderr)
        return 2
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    verdict = audit.verdict
    assert verdict is not None
    if not args.jsonl:
        statuses = summary.get("statuses", {})
        print(
            f"{verdict.name}: {statuses.get('authenticated', 0)} of {summary.get('receipts', 0)} "
            f"receipts authenticated, {sum(c['count'] for c in summary.get('findings', []))} findings"
        )
    return int(verdict)


if __name__ == "__main__":
    sys.exit(main())

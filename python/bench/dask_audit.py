"""The Dask half of `cargo bench --bench dask_throughput` (benches/dask_throughput.rs runs it):
audits one receipt directory with `sealkit.dask.audit` on a LocalCluster of N single-threaded
worker processes and prints one JSON line: receipts/s by the clock from the listing to the
summary (the cluster started and sealkit imported on its workers beforehand, as on a cluster
that is already up), the facts' size per receipt, the summary (to compare with the command's),
the CPU seconds of the driver (this process: the listing, the client, the scheduler, the
nannies, the reduce) and of the workers during the audit, and the load average before and
after.

    python python/bench/dask_audit.py DIR RECEIPT_KEY_HEX WORKERS [PARTITIONS]
"""

from __future__ import annotations

import json
import resource
import sys
import time

from distributed import Client, LocalCluster

import sealkit
import sealkit.dask
from sealkit import _native


def load() -> str:
    with open("/proc/loadavg") as file:
        return file.read().split()[0]


def cpu_seconds() -> float:
    """User + system CPU time of the calling process, all its threads."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    directory, key, workers = sys.argv[1], sys.argv[2], int(sys.argv[3])
    partitions = int(sys.argv[4]) if len(sys.argv) > 4 else None
    with LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, Client(cluster) as client:
        client.run(lambda: __import__("sealkit.dask"))
        before = load()
        workers_before = client.run(cpu_seconds)
        driver_before = cpu_seconds()
        started = time.perf_counter()
        audit = sealkit.dask.audit(directory, client=client, receipt_key=key, partitions=partitions)
        findings = 0
        summary = None
        for record in audit:
            if record["type"] == "finding":
                findings += 1
            else:
                summary = record
        elapsed = time.perf_counter() - started
        driver_cpu = cpu_seconds() - driver_before
        workers_after = client.run(cpu_seconds)
        after = load()
        # The reduce alone: every partition's facts gathered first (the same map again), then
        # reduced on this thread; its CPU time. (Its state is not measured here: the resident
        # set of a process that has just freed the Dask run's memory reuses those blocks and
        # read about 0 bytes a file, a figure that could not be right.)
        plan = sealkit.audit_plan(directory, receipt_key=key)
        parts = plan.partitions(partitions or 4 * workers)
        facts = list(
            sealkit.dask._in_order(
                client, sealkit.dask._map, parts, window=2 * workers + 2,
                receipt_key=plan.receipt_key, approvers=None, storage_options=None,
            )
        )
    assert summary is not None
    facts_bytes = sum(map(len, facts))
    cpu = time.process_time()
    reducer = _native.AuditReducer(plan.native)
    for part in facts:
        reducer.add(part)
    reducer.finish(False)
    reduce_cpu = time.process_time() - cpu
    print(
        json.dumps(
            {
                "workers": workers,
                "files": len(plan),
                "receipts": summary["receipts"],
                "seconds": elapsed,
                "driver_cpu_seconds": driver_cpu,
                "workers_cpu_seconds": sum(
                    workers_after[w] - workers_before[w] for w in workers_after
                ),
                "findings": findings,
                "facts_bytes_per_file": facts_bytes / max(1, len(plan)),
                "reduce_cpu_us_per_file": reduce_cpu * 1e6 / max(1, len(plan)),
                "summary": summary,
                "verdict": int(audit.verdict) if audit.verdict is not None else None,
                "driver_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                "load_before": before,
                "load_after": after,
            }
        )
    )


if __name__ == "__main__":
    main()

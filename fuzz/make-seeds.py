#!/usr/bin/env python3
"""Rebuilds fuzz/corpus/<target>/ (the committed seed corpora) from testdata/.

Each seed file is named by the SHA-1 of its bytes (libFuzzer's convention), so running
this again is idempotent. Seeds stay small: no file over 64 KiB, and large generated
inputs are left to the fuzzer and to tests/robust_cli.rs.

Two phase-2 seed kinds are made by sealkit itself (so this runs `cargo run` once each):
a signed decline (`sealkit approve --deny`, deterministic) and migration outputs
(`sealkit migrate`), which no file in testdata holds.
"""
import hashlib, json, os, pathlib, shutil, subprocess, tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
TD = ROOT / "testdata"
OUT = ROOT / "fuzz" / "corpus"
MAX_SEED = 64 * 1024


def lines(path):
    return [l + b"\n" for l in path.read_bytes().split(b"\n") if l.strip()]


def frames_from_testdata():
    seeds = []
    lvc = TD / "legacy-vs-current" / "frames"
    for p in sorted(lvc.iterdir()):
        seeds.append(p.read_bytes())
    seeds.append((TD / "vectors" / "getting-started-call.frame").read_bytes())
    seeds += lines(TD / "captures" / "sample.jsonl")
    seeds += lines(TD / "typed" / "typed-capture.jsonl")
    for v in json.loads((TD / "vectors" / "sealkit-dev-identities.json").read_bytes())["vectors"]:
        seeds.append(v["frame"].encode())
    for v in json.loads((TD / "vectors" / "effect_v4_meta_6part_vectors.json").read_bytes())["vectors"]:
        params = {"name": v["tool"], "arguments": json.loads(v["arguments_json"])}
        if v.get("meta_json") is not None:
            params["_meta"] = json.loads(v["meta_json"])
        frame = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}
        seeds.append(json.dumps(frame, separators=(",", ":"), ensure_ascii=False).encode() + b"\n")
    # Framing shapes the identity engine distinguishes.
    call = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}'
    seeds += [call + b"\r\n", call, call + b"\n\n   \n" + call, b"\n", b""]
    return seeds


def json_suite(max_len=4096):
    d = TD / "JSONTestSuite" / "test_parsing"
    return [p.read_bytes() for p in sorted(d.iterdir()) if p.stat().st_size <= max_len]


def envelope_lines():
    corpus = json.loads((TD / "envelope" / "envelope_v23_twin_corpus.json").read_bytes())
    seeds = [v["line"].encode() for v in corpus["vectors"]]
    seeds += lines(TD / "typed" / "envelope-call.jsonl")
    seeds += lines(TD / "typed" / "typed-capture.jsonl")
    seeds.append((TD / "typed" / "envelope-params.json").read_bytes())
    params = json.loads((TD / "typed" / "envelope-params.json").read_bytes())
    for v in corpus["vectors"]:
        e = dict(v["envelope"])
        e["authority_hex"] = v["authority_hex"]
        if isinstance(e.get("effect"), dict):
            e["effect"] = {k: e["effect"][k] for k in ("resource", "action", "args") if k in e["effect"]}
        seeds.append(json.dumps(e, separators=(",", ":")).encode())
    seeds.append(json.dumps(dict(params, effect=None)).encode())
    return seeds


def v2_lines():
    seeds = lines(TD / "typed" / "typed-capture.jsonl")
    seeds = [s.rstrip(b"\n") for s in seeds]
    seeds += [v["line"].encode() for v in json.loads((TD / "envelope" / "envelope_v23_twin_corpus.json").read_bytes())["vectors"]]
    seeds.append((TD / "typed" / "tool-spec.json").read_bytes())
    for line in [b"null", b"-12.34", b'"\\u00e9\\ud83d\\ude00\\n"', b'{"b":1,"a":[{"z":{}}]}',
                 b'"a\\"b\\\\c\\nd\\te\\rf\\bg\\fh"', b'"\\u0000\\u001f\\u007f"']:
        seeds.append(line)
    return seeds


def meta_values():
    seeds = set()
    for path in TD.rglob("*"):
        if path.is_file() and path.suffix in (".frame", ".capture", ".jsonl"):
            for line in path.read_bytes().split(b"\n"):
                try:
                    frame = json.loads(line)
                except ValueError:
                    continue
                meta = (frame.get("params") or {}).get("_meta") if isinstance(frame, dict) else None
                if isinstance(meta, dict):
                    for key, value in meta.items():
                        seeds.add(key.encode())
                        if isinstance(value, str):
                            seeds.add(value.encode())
    seeds |= {b"rojo=00f067aa0ba902b7,congo=t61rcWkgMzE", b"vendor@tenant=x, a=1,,b=2 ",
              b"userId=alice,serverNode=DF%2028;prop1;prop2=v", b"k=v;p",
              b"io.modelcontextprotocol/protocolVersion", b"com.example.app/trace-id"}
    return sorted(seeds)


def write(target, seeds):
    out = OUT / target
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    kept = 0
    for s in seeds:
        if len(s) > MAX_SEED:
            continue
        name = hashlib.sha1(s).hexdigest()
        (out / name).write_bytes(s)
        kept += 1
    print(f"{target}: {len(list(out.iterdir()))} seeds")


APPROVALS = TD / "approvals"
RECEIPTS = TD / "receipts"
LVC = RECEIPTS / "legacy-vs-current"


def sealkit(*args):
    """Runs sealkit from the repository root with paths relative to it (they end up in
    its output); exit status 1 only means it found something."""
    args = [str(a.relative_to(ROOT)) if isinstance(a, pathlib.Path) and a.is_relative_to(ROOT)
            else str(a) for a in args]
    run = subprocess.run(["cargo", "run", "--quiet", "--", *args], cwd=ROOT, capture_output=True)
    if run.returncode not in (0, 1):
        raise RuntimeError(f"sealkit {args}: {run.stderr.decode()}")
    return run.stdout


def token_files():
    files = sorted(APPROVALS.glob("*.ndjson")) + sorted(APPROVALS.glob("legacy-vs-current/*/*.ndjson"))
    return [p.read_bytes() for p in files]


def signed_decline():
    with tempfile.TemporaryDirectory() as tmp:
        key = pathlib.Path(tmp) / "approval.key"
        key.write_text("17" * 32 + "\n")
        key.chmod(0o600)
        tokens = pathlib.Path(tmp) / "tokens.ndjson"
        target = "2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565"
        sealkit("approve", "--deny", "--yes", "--token-file", tokens, "--key-file", key,
                "--target", target, "--frame", APPROVALS / "getting-started-call.frame",
                "--nonce", "decline-1", "--authorized-at", "1786000000000")
        return tokens.read_bytes()


def approval_token_seeds(decline):
    seeds = token_files() + [decline]
    for text in token_files():
        for line in text.split(b"\n"):
            if not line.strip():
                continue
            seeds.append(line)
            seeds.append(json.loads(line)["payload"].encode())
            seeds.append(b" " + line + b"\r\n\r\n" + line + b"\r")
    seeds += [b"", b"\n", b"\r\n", b"a\r", b"a\r\r\nb"]
    return seeds


def approval_verify_seeds(decline):
    seeds = token_files() + [decline, b"".join(token_files())]
    for text in token_files():
        seeds += [l for l in text.split(b"\n") if l.strip()]
    seeds += [("17" * 32 + "\n").encode(), ("AB" * 32 + "\r\n").encode(), b"31debe55d37c722768b137131caa6087080b2e0b60b94bd785d14575cfa498bc"]
    return seeds


def receipt_files():
    dirs = [RECEIPTS / "fixture-dir", LVC / "new" / "receipts", LVC / "old" / "receipts"]
    return [p.read_bytes() for d in dirs for p in sorted(d.glob("receipt-*.json"))]


def receipt_seeds():
    values = [b"null", b"true", b"0", b"-1.5e3", b'"x"', b"[]", b"{}", b'[{"a":null}]', b'"\\ud800"']
    return receipt_files() + values + json_suite(max_len=256)


def chain_seeds():
    seeds = [p.read_bytes() for p in sorted((RECEIPTS / "chain").iterdir())]
    seeds += [(LVC / "new" / n).read_bytes() for n in ("sealed.json", "audit.lines")]
    for d in (RECEIPTS / "fixture-dir", LVC / "new" / "receipts", LVC / "old" / "receipts"):
        seeds.append((d / ".seal-audit-head.state").read_bytes())
    seeds += [b'{"format":"seal-verifiable-record/v1","genesis":"0633b0b4c5ca8207b3174d64fe438b99eaa1f5d95d0d4bbaa5d3fe6bd5f700a9","entries":[]}',
              b"\xef\xbb\xbf a \r\n\n\t\nb\xc2\x85\n\xff\n"]
    return seeds


def migration_outputs():
    """summary.json, NUL, migration.jsonl of small `sealkit migrate` runs."""
    runs = [
        ([RECEIPTS / "fixture-dir"], [RECEIPTS / "receipt-inputs" / "line.txt"]),
        ([LVC / "old" / "receipts" / n for n in sorted(os.listdir(LVC / "old" / "receipts"))
          if n.startswith("receipt-00000000000000000000")], [LVC / "frames" / "session-L.capture"]),
        ([LVC / "new" / "receipts" / n for n in sorted(os.listdir(LVC / "new" / "receipts"))
          if n.startswith("receipt-00000000000000000001")], [LVC / "frames" / "session-M.capture"]),
    ]
    seeds = []
    for old, frames in runs:
        with tempfile.TemporaryDirectory() as tmp:
            sealkit("migrate", *old, "--frames", *frames, "--out", tmp)
            summary = (pathlib.Path(tmp) / "summary.json").read_bytes()
            records = (pathlib.Path(tmp) / "migration.jsonl").read_bytes()
            seeds += [summary + b"\0" + records, records]
    return seeds


def migration_record_seeds():
    captures = [(LVC / "frames" / n).read_bytes() for n in ("session-L.capture", "session-M.capture")]
    return migration_outputs() + captures + receipt_files()


def bundle_seeds():
    return [p.read_bytes() for p in sorted((RECEIPTS / "bundles").glob("bundle-*.json"))]


def audit_names_seeds():
    names = set()
    for d in (RECEIPTS / "fixture-dir", LVC / "new" / "receipts", LVC / "old" / "receipts"):
        names |= set(os.listdir(d))
    names |= {".receipt-4242-00000000000000000003.tmp", ".seal-audit-head-4242-1.tmp",
              ".authorization-decision-rewrite-4242.tmp", ".operation-state-4242.tmp",
              ".seal-receipt-probe-4242", "notes.json", "receipt-.json", "receipt-7-x.json"}
    seeds = [n.encode() for n in sorted(names)]
    seeds.append("\n".join(sorted(names)).encode())
    seeds += [(d / ".seal-operation-state.json").read_bytes()
              for d in (RECEIPTS / "fixture-dir", LVC / "new" / "receipts")]
    return seeds


def trusted_approvers_seeds():
    """The README's rotation list, lists with windows in both TIME forms, and the refused
    shapes (one key under two names, seconds, YYYYMMDD, invisible characters)."""
    a = "31debe55d37c722768b137131caa6087080b2e0b60b94bd785d14575cfa498bc"
    b = "ea4a6c63e29c520abef5507b132ec5f9954776aebebe7b92421eea691446d22c"
    ssh = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDHevlXTfHInaLE3ExyqYIcICy4LYLlL14XRRXXPpJi8"
    readme = (ROOT / "docs" / "approvals.md").read_text()
    start = readme.index("# who may approve production calls\n")
    seeds = [readme[start:readme.index("```", start)]]
    seeds += [
        f"alice {a}\n",
        f"alice {a} valid-before=1786000005000\nalice {b} valid-after=2026-08-06T07:06:45Z # rotated\n",
        f"bob {ssh} bob@host valid-after=2026-01-01T00:00:00.5+02:00 valid-before=2030-01-01T00:00:00Z\n",
        f"alice {a}\nbob {a}\n",
        f"alice {a} valid-after=1787218300\n",
        f"alice {a} valid-before=20270101\n",
        f"al\u202eice {a}\n",
        f"alice {a} valid-after=5 valid-before=4\n",
        f"alice {a.upper()} valid-after=0\n\n# end\n",
    ]
    return [s.encode() for s in seeds]


def key_files_seeds():
    seed_hex = "17" * 32
    public = "31debe55d37c722768b137131caa6087080b2e0b60b94bd785d14575cfa498bc"
    ssh = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDHevlXTfHInaLE3ExyqYIcICy4LYLlL14XRRXXPpJi8 me@host"
    encrypted = (TD / "keys" / "encrypted-passphrase-fuzz-logn2.key").read_bytes()
    return [
        f"{seed_hex}\n".encode(), f"{public}\r\n".encode(), public.encode(), bytes([0x17] * 32),
        f"{ssh}\n".encode(), b"-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n",
        encrypted, encrypted.split(b"\n", 1)[1], b"sealkit-public-key " + public.encode(),
    ]


def jcs_seeds():
    """RFC 8785 vectors (input and output), the number cases' edge lines (each as its
    expected text, and as its 8 bits little-endian followed by that text), and receipts."""
    jcs = TD / "jcs"
    seeds = [p.read_bytes() for d in ("input", "output") for p in sorted((jcs / d).iterdir())]
    for line in (jcs / "es6-numbers.txt").read_text().splitlines()[:100]:
        bits, text = line.split(",")
        seeds.append(text.encode())
        seeds.append(int(bits, 16).to_bytes(8, "little") + text.encode())
    seeds += [p.read_bytes() for p in sorted((RECEIPTS / "fixture-dir").glob("receipt-*.json"))]
    seeds += [b'{"a":1,"a":2}', b'"\\ud800"', b'1e400', b'[{"\\u00e9":1,"\\ud83d\\ude02":2,"\\ufb33":3}]']
    return seeds


def capture_members_seeds():
    """Captures of requests and annotated responses (the annotated capture whole, each of its
    frames, the sessions' captures) and frames that already write a member twice: in a
    response's `result`, its annotation, its `id`, a request's `params`."""
    annotated = TD / "evidence" / "annotated.capture"
    seeds = [annotated.read_bytes()] + lines(annotated)
    seeds += [p.read_bytes() for p in sorted((LVC / "frames").glob("session-*.capture"))]
    seeds += [
        b'{"jsonrpc":"2.0","id":1,"id":2,"result":{}}\n',
        b'{"jsonrpc":"2.0","id":1,"result":{"_meta":{"a":1}},"result":{}}\n',
        b'{"jsonrpc":"2.0","id":1,"result":{"_meta":{"k":{"evidenceRef":{},"evidenceRef":[]}}}}\n',
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"},"params":{"name":"u"}}\n',
        b'{"jsonrpc":"2.0","id":1,"method":null,"result":{}}\n',
        b'{"a":1,"\\u0061":2}\n',
    ]
    return seeds


frames = frames_from_testdata()
write("frame_pipeline", frames)
write("canonical", frames + json_suite())
write("wire_guards", frames + json_suite())
write("v2_reader", v2_lines())
write("envelope", envelope_lines())
write("meta_values", meta_values())

decline = signed_decline()
write("approval_token", approval_token_seeds(decline))
write("approval_verify", approval_verify_seeds(decline))
write("receipt", receipt_seeds())
write("chain", chain_seeds())
write("migration_record", migration_record_seeds())
write("bundle", bundle_seeds())
write("audit_names", audit_names_seeds())
write("trusted_approvers", trusted_approvers_seeds())
write("key_files", key_files_seeds())
write("jcs", jcs_seeds())
write("capture_members", capture_members_seeds())

#!/usr/bin/env python3
"""Rebuilds fuzz/corpus/<target>/ (the committed seed corpora) from testdata/.

Each seed file is named by the SHA-1 of its bytes (libFuzzer's convention), so running
this again is idempotent. Seeds stay small: no file over 64 KiB, and large generated
inputs are left to the fuzzer and to tests/robust_cli.rs.
"""
import hashlib, json, os, pathlib, shutil

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


frames = frames_from_testdata()
write("frame_pipeline", frames)
write("canonical", frames + json_suite())
write("wire_guards", frames + json_suite())
write("v2_reader", v2_lines())
write("envelope", envelope_lines())
write("meta_values", meta_values())

#!/usr/bin/env python3
"""Floods a running Crucible with chat completions and reports what overload looks like from outside.

  bench/overload.py --url http://127.0.0.1:8000 --key $KEY [--short-keys K1,K2,...] [--key2 $OTHER] \
      --model crucible-tiny --long 64 --long-tokens 256 --short 200 --short-tokens 8

Starts --long chats of --long-tokens tokens (ignore_eos) with --key, then a second later --short chats of
--short-tokens, all at once, with --key or, cycling, the --short-keys (several tenants: only the model's queue bound
applies); with --key2, 8 short chats of another key run meanwhile (its share while --key floods). Prints per kind: how many were answered
200 and 429, the Retry-After values seen, and the latency quantiles of the answered ones; then /proc/loadavg.
No retries: each 429 is counted as refused. Standard library only.
"""
import argparse
import json
import statistics
import threading
import time
import urllib.error
import urllib.request


def chat(url, key, model, tokens, results, kind):
    body = json.dumps({"model": model, "messages": [{"role": "user", "content": "Tell me a story."}],
                       "max_tokens": tokens, "ignore_eos": True, "temperature": 0}).encode()
    request = urllib.request.Request(url + "/v1/chat/completions", data=body, method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": "Bearer " + key})
    start = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=600) as response:
            response.read()
            status, retry = response.status, None
    except urllib.error.HTTPError as e:
        status, retry = e.code, e.headers.get("Retry-After")
        e.read()
    except Exception as e:  # a refused connection or a timeout counts as its own kind of failure
        status, retry = type(e).__name__, None
    results.append((kind, status, retry, time.monotonic() - start))


def quantile(values, q):
    return sorted(values)[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--url", default="http://127.0.0.1:8000")
    p.add_argument("--key", required=True)
    p.add_argument("--short-keys", help="comma-separated keys for the short chats, cycled (default: --key)")
    p.add_argument("--key2")
    p.add_argument("--model", default="crucible-tiny")
    p.add_argument("--long", type=int, default=64)
    p.add_argument("--long-tokens", type=int, default=256)
    p.add_argument("--short", type=int, default=200)
    p.add_argument("--short-tokens", type=int, default=8)
    a = p.parse_args()
    results = []
    threads = [threading.Thread(target=chat, args=(a.url, a.key, a.model, a.long_tokens, results, "long"))
               for _ in range(a.long)]
    for t in threads:
        t.start()
    time.sleep(1)
    short_keys = a.short_keys.split(",") if a.short_keys else [a.key]
    more = [threading.Thread(target=chat, args=(a.url, short_keys[i % len(short_keys)], a.model, a.short_tokens,
                                                results, "short"))
            for i in range(a.short)]
    if a.key2:
        more += [threading.Thread(target=chat, args=(a.url, a.key2, a.model, a.short_tokens, results, "other-key"))
                 for _ in range(8)]
    for t in more:
        t.start()
    for t in threads + more:
        t.join()
    for kind in ("long", "short", "other-key"):
        rows = [r for r in results if r[0] == kind]
        if not rows:
            continue
        ok = [r[3] for r in rows if r[1] == 200]
        refused = [r for r in rows if r[1] == 429]
        other = [r[1] for r in rows if r[1] not in (200, 429)]
        retry = sorted({r[2] for r in refused})
        print(f"{kind:9s} sent {len(rows):4d}  200: {len(ok):4d}  429: {len(refused):4d}  other: {other[:5]}"
              f"  Retry-After seen: {retry}  latency of 200s p50 {quantile(ok, .5):.2f}s"
              f" p90 {quantile(ok, .9):.2f}s max {max(ok) if ok else float('nan'):.2f}s")
    with open("/proc/loadavg") as f:
        print("loadavg:", f.read().strip())


if __name__ == "__main__":
    main()

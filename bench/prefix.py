#!/usr/bin/env python3
"""Prefix-caching benchmark client (bench/prefix starts the server): time to first token of a shared system prompt,
the first request against the following ones, and one n=8 request against eight separate requests.

Usage: prefix.py BASE_URL KEY MODEL ENGINE PROMPT_TOKENS REPEATS

Every request asks for max_tokens=1, so its whole latency is its time to first token (prefill, one sample, HTTP).
Each measurement uses its own system prompt (a fresh tag at its start), so nothing is cached before it starts.
"""
import json
import os
import statistics
import sys
import threading
import time
import urllib.request

base, key, model, engine = sys.argv[1:5]
prompt_tokens = int(sys.argv[5])
repeats = int(sys.argv[6])
WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec "
         "romeo sierra tango uniform victor whiskey xray yankee zulu").split()


def load():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def post(body):
    request = urllib.request.Request(base + "/v1/chat/completions", data=json.dumps(body).encode(),
                                     headers={"Authorization": "Bearer " + key, "Content-Type": "application/json"})
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=1800) as response:
        reply = json.loads(response.read())
    return time.perf_counter() - start, reply


def system(tag, words):
    return f"[{tag}] You follow these rules. " + " ".join(WORDS[(i * 7) % len(WORDS)] for i in range(words))


def chat(sys_text, question, **extra):
    body = {"model": model, "max_tokens": 1, "temperature": 0,
            "messages": [{"role": "system", "content": sys_text}, {"role": "user", "content": question}]}
    body.update(extra)
    return body


def usage(reply):
    u = reply["usage"]
    return u["prompt_tokens"], (u.get("prompt_tokens_details") or {}).get("cached_tokens", 0)


def calibrate():
    """Words of system prompt giving about prompt_tokens tokens (measured under a salt nothing else uses)."""
    words = 300
    for _ in range(3):
        _, reply = post(chat(system("calibration", words), "Hi", cache_salt=f"calibrate-{words}"))
        tokens, _ = usage(reply)
        if abs(tokens - prompt_tokens) <= prompt_tokens // 50:
            break
        words = max(1, round(words * prompt_tokens / tokens))
    return words


def concurrent(bodies):
    """Sends the bodies at once; seconds until every reply is in."""
    results = [None] * len(bodies)

    def send(i):
        results[i] = post(bodies[i])

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(bodies))]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - start, results


def main():
    post(chat("warm-up", "Hi"))
    words = calibrate()
    tag = f"{engine}-{time.time_ns()}"
    print(f"engine {engine}: load average {load()} (1, 5, 15 min) at start")

    # A. One shared system prompt: the first request against the following ones (each another question).
    shared = system(tag + "-shared", words)
    first_s, first = post(chat(shared, "Question 0: what is the first rule?"))
    following = [post(chat(shared, f"Question {i}: what is rule {i}?")) for i in range(1, repeats + 1)]
    tokens, _ = usage(first)
    follow_s = [s for s, _ in following]
    cached = [usage(r)[1] for _, r in following]
    print(f"  shared system prompt, {tokens} prompt tokens")
    print(f"    first request        ttft {first_s * 1000:9.1f} ms   cached_tokens {usage(first)[1]}")
    print(f"    following ({repeats})        ttft {statistics.median(follow_s) * 1000:9.1f} ms median "
          f"(min {min(follow_s) * 1000:.1f}, max {max(follow_s) * 1000:.1f})   cached_tokens {sorted(set(cached))}")
    print(f"    speed-up             {first_s / statistics.median(follow_s):9.1f}x")

    # B. Eight samples of one prompt: n=8 in one request against eight separate requests.
    n8_s, n8 = post(chat(system(tag + "-n8", words), "Hi", n=8, temperature=1.0, seed=1))
    burst_s, _ = concurrent([chat(system(tag + "-burst", words), "Hi", temperature=1.0, seed=i) for i in range(8)])
    seq_prompt = system(tag + "-sequential", words)
    seq_start = time.perf_counter()
    seq = [post(chat(seq_prompt, "Hi", temperature=1.0, seed=i)) for i in range(8)]
    seq_s = time.perf_counter() - seq_start
    print(f"  eight samples of one {usage(n8)[0]}-token prompt, time until all eight have their first token")
    print(f"    n=8, one request           {n8_s * 1000:9.1f} ms   choices {len(n8['choices'])}")
    print(f"    8 requests at once         {burst_s * 1000:9.1f} ms   ({burst_s / n8_s:.1f}x the n=8 time)")
    print(f"    8 requests one by one      {seq_s * 1000:9.1f} ms   ({seq_s / n8_s:.1f}x; cached_tokens "
          f"{[usage(r)[1] for _, r in seq]})")
    print(f"engine {engine}: load average {load()} at end")
    print(f"prefix: engine={engine} prompt={tokens} first_ms={first_s * 1000:.0f} "
          f"following_ms={statistics.median(follow_s) * 1000:.0f} n8_ms={n8_s * 1000:.0f} "
          f"burst8_ms={burst_s * 1000:.0f} sequential8_ms={seq_s * 1000:.0f}")


main()

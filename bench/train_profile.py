#!/usr/bin/env python3
"""bench/train-profile's table: per operator of a PyTorch Chrome trace, its self time (its duration less that of the
operators it called, on its thread) summed over the trace, and the share of matrix products against the rest.
Usage: train_profile.py TRACE.json"""
import collections
import json
import sys

MATMUL = {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::addmv", "aten::mv", "aten::dot"}


def events(path):
    with open(path) as f:
        data = json.load(f)
    if isinstance(data, dict):
        data = data.get("traceEvents", [])
    return [e for e in data if e.get("ph") == "X" and "dur" in e]


def self_times(evs):
    """Self time per name: each event's duration less its direct children's, children found by nesting per thread."""
    by_thread = collections.defaultdict(list)
    for e in evs:
        by_thread[(e.get("pid"), e.get("tid"))].append(e)
    totals = collections.Counter()
    counts = collections.Counter()
    for thread in by_thread.values():
        thread.sort(key=lambda e: (float(e["ts"]), -float(e["dur"])))
        stack = []  # [end, name, child time]
        def close(until):
            while stack and stack[-1][0] <= until:
                end, name, child, dur = stack.pop()
                totals[name] += dur - child
                if stack:
                    stack[-1][2] += dur
        for e in thread:
            ts, dur = float(e["ts"]), float(e["dur"])
            close(ts)
            stack.append([ts + dur, e["name"], 0.0, dur])
            counts[e["name"]] += 1
        close(float("inf"))
    return totals, counts


def main():
    evs = events(sys.argv[1])
    if not evs:
        sys.exit("no complete events in " + sys.argv[1])
    totals, counts = self_times(evs)
    whole = sum(totals.values())
    matmul = sum(v for k, v in totals.items() if k in MATMUL)
    print()
    print("Training step profile: PyTorch's profiler over the timed step(s), self time per operator (us summed over "
          "threads that recorded; the profiler's own cost included)")
    print(f"  events {len(evs)}, self time in all {whole / 1e6:.2f} s; matrix products {matmul / 1e6:.2f} s "
          f"({100 * matmul / whole:.1f}%), everything else {(whole - matmul) / 1e6:.2f} s "
          f"({100 * (whole - matmul) / whole:.1f}%)")
    print()
    print(f"| {'operator':<44} | {'calls':>7} | {'self s':>8} | {'share':>6} |")
    print(f"| {'-' * 44} | {'-' * 7} | {'-' * 8} | {'-' * 6} |")
    for name, t in totals.most_common(25):
        print(f"| {name[:44]:<44} | {counts[name]:>7} | {t / 1e6:>8.3f} | {100 * t / whole:>5.1f}% |")
    print()
    others = [(k, v) for k, v in totals.most_common() if k not in MATMUL]
    if others:
        k, v = others[0]
        print(f"train-profile: matmul_share={matmul / whole:.3f} top_other={k} top_other_share={v / whole:.3f}")


if __name__ == "__main__":
    main()

"""Summarises an ONNX Runtime profile (Chrome-trace JSON) of decode steps of ROWS sequences (one token each): per
node type the milliseconds per step, per matrix product its width, time, the bandwidth its weights were read at and
the arithmetic rate it reached.

usage: python3 profile.py TRACE.json BANDWIDTH.json ENGINE [ROWS]
"""
import bisect
import collections
import json
import os
import re
import statistics
import sys

trace, bandwidth_file, engine = sys.argv[1:4]
rows = int(sys.argv[4]) if len(sys.argv) > 4 else 1
events = json.load(open(trace))
bandwidth = json.load(open(bandwidth_file))
runs = sorted((e for e in events if e.get("cat") == "Session" and e.get("name") == "model_run"),
              key=lambda e: e["ts"])
starts = [r["ts"] for r in runs]
nodes_of = collections.defaultdict(list)
for e in events:
    if e.get("cat") == "Node" and e.get("name", "").endswith("_kernel_time"):
        nodes_of[bisect.bisect_right(starts, e["ts"]) - 1].append(e)


def shape(entry):
    return list(entry.values())[0]


def step_rows(i):
    """The [batch, seq] of run i, read from its attention node's query."""
    for n in nodes_of[i]:
        if n["args"].get("op_name") == "GroupQueryAttention":
            return tuple(shape(n["args"]["input_type_shape"][0])[:2])
    return None


decode = [i for i in range(len(runs)) if step_rows(i) == (rows, 1)]
decode = decode[len(decode) // 4:]  # past the warm-up run
if not decode:
    sys.exit(f"no decode steps of {rows} rows in " + trace)
f32 = engine == "onnx"


# the engine's block: -Dcrucible.onnx.blockSize in JAVA_TOOL_OPTIONS, else its default of 128
block = int(re.search(r"-Dcrucible\.onnx\.blockSize=(\d+)", os.environ.get("JAVA_TOOL_OPTIONS", ""))
            .group(1) if "crucible.onnx.blockSize" in os.environ.get("JAVA_TOOL_OPTIONS", "") else 128)


def weight_bytes(k, n):
    """F32: 4 bytes a weight; int4 (MatMulNBits, blocks of `block`): block/2 bytes of values and a 4-byte scale."""
    return k * n * 4 if f32 else n * -(-k // block) * (block // 2 + 4)


per_op = collections.Counter()
count = collections.Counter()
width = {}
flops = {}
for i in decode:
    for n in nodes_of[i]:
        op = n["args"]["op_name"]
        if op in ("FusedMatMul", "MatMul", "MatMulNBits"):
            k = shape(n["args"]["input_type_shape"][0])[-1]
            out = shape(n["args"]["output_type_shape"][0])[-1]
            op = f"{op} {k}x{out}"
            width[op] = weight_bytes(k, out)
            flops[op] = 2 * rows * k * out
        per_op[op] += n["dur"]
        count[op] += 1
steps = len(decode)
run_ms = statistics.median(runs[i]["dur"] for i in decode) / 1000
kernels_ms = sum(per_op.values()) / steps / 1000
read = bandwidth["read_gbs"]
print(f"ONNX Runtime profile, {engine}, {steps} decode steps of batch {rows} (median run {run_ms:.2f} ms, "
      f"kernels {kernels_ms:.2f} ms, so {run_ms - kernels_ms:.2f} ms between nodes)")
print(f"read bandwidth probe: {read:.1f} GB/s with {bandwidth['threads']} threads")
print("| node | per step | ms per step | share | us per node | weight GB/s | of probe | GFLOP/s |")
print("| ---- | -------- | ----------- | ----- | ----------- | ----------- | -------- | ------- |")
for op, total in per_op.most_common():
    ms = total / steps / 1000
    each = total / count[op]
    rate = ""
    of = ""
    arithmetic = ""
    if op in width:
        gbs = width[op] / each / 1000
        rate = f"{gbs:.1f}"
        of = f"{gbs / read:.2f}"
        arithmetic = f"{flops[op] / each / 1000:.1f}"
    print(f"| {op} | {count[op] // steps} | {ms:.2f} | {ms / run_ms:.1%} | {each:.1f} | {rate} | {of} | {arithmetic} |")
weights = sum(width[op] * (count[op] // steps) for op in width)
product_ms = sum(per_op[op] for op in width) / steps / 1000
print(f"products: {weights / 1e9:.3f} GB of weights in {product_ms:.2f} ms = {weights / product_ms / 1e6:.1f} GB/s "
      f"({weights / product_ms / 1e6 / read:.2f} of the probe); whole step {weights / run_ms / 1e6:.1f} GB/s "
      f"({weights / run_ms / 1e6 / read:.2f}); products' arithmetic "
      f"{sum(flops[op] * (count[op] // steps) for op in flops) / product_ms / 1e6:.1f} GFLOP/s")

#!/usr/bin/env python3
"""Drift benchmark client (bench/drift starts the server): how far an RL job's trainer (DJL, F32) is from the sampler.

Usage: drift.py BASE_URL KEY ENTITY MODEL[,MODEL...]     (knobs: BENCH_DRIFT_* environment variables)

For each served base MODEL (the same weights served at F32 and at int4 under two names): creates a trainable model on
it, samples BENCH_DRIFT_ROLLOUTS chat completions from it (temperature 1, BENCH_DRIFT_MAX_TOKENS tokens, logprobs,
seeded), posts them as one RL group (rewards alternating 0 and 1) with a learning rate too small to matter, and reads
the first gradient_step event's drift: the mean and largest |trainer - sampler| logprob and the k3 estimate of
KL(sampler || trainer), over the sampled tokens.
Last line: drift: <model>_mean=<x> <model>_max=<x> <model>_k3=<x> ...
Only BASE_URL (loopback) is contacted.
"""
import json
import os
import sys
import time
import urllib.request

base, key, entity, models = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split(",")
ROLLOUTS = int(os.environ.get("BENCH_DRIFT_ROLLOUTS", "8"))
MAX_TOKENS = int(os.environ.get("BENCH_DRIFT_MAX_TOKENS", "16"))
SEED = int(os.environ.get("BENCH_SEED", "20251127"))
PROMPTS = ["Tell me a story.", "Describe the sea.", "List three colours.", "What is a good name for a cat?"]
if not base.startswith(("http://127.0.0.1:", "http://localhost:", "http://[::1]:")):
    raise SystemExit(f"drift.py talks to loopback only, got {base}")


def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers={
        "Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=1800) as reply:
        return json.loads(reply.read())


def say(text):
    print(f"drift: {text}", file=sys.stderr, flush=True)


summary = []
for served in models:
    name = f"drift-{served}-{int(time.time())}"
    model_id = call("POST", "/v1/preview/models", {"project": "bench", "name": name, "base_model": served})["id"]
    address = f"crucible:///{entity}/bench/{name}"
    trajectories = []
    started = time.time()
    for i in range(ROLLOUTS):
        user = {"role": "user", "content": PROMPTS[i % len(PROMPTS)]}
        reply = call("POST", "/v1/chat/completions", {"model": address, "messages": [user], "max_tokens": MAX_TOKENS,
                                                      "temperature": 1.0, "logprobs": True, "seed": SEED + i})
        trajectories.append({"messages_and_choices": [user, reply["choices"][0]], "reward": float(i % 2)})
    say(f"{served}: {ROLLOUTS} rollouts in {time.time() - started:.0f} s")
    started = time.time()
    job = call("POST", "/v1/preview/training-jobs", {"model_id": model_id, "trajectory_groups": [
        {"trajectories": trajectories}], "experimental_config": {"learning_rate": 1e-9}})["id"]
    while True:
        status = call("GET", f"/v1/preview/training-jobs/{job}")
        if status["status"] not in ("QUEUED", "RUNNING"):
            break
        time.sleep(1)
    if status["status"] != "COMPLETED":
        raise SystemExit(f"job {job} ended {status['status']}: {status.get('error_message')}")
    events = call("GET", f"/v1/preview/training-jobs/{job}/events?limit=100")["data"]
    step = next(e["data"] for e in events if e["type"] == "gradient_step")
    say(f"{served}: trained in {time.time() - started:.0f} s; first step {json.dumps(step)}")
    print(f"{served}: sampler vs DJL F32 trainer over {step['sampler_logprob_tokens']} tokens: mean |diff| "
          f"{step['sampler_logprob_diff_mean']:.4g}, max {step['sampler_logprob_diff_max']:.4g}, k3 KL(sampler||trainer) "
          f"{step['sampler_kl_k3']:.4g}")
    summary += [f"{served}_mean={step['sampler_logprob_diff_mean']:.4g}",
                f"{served}_max={step['sampler_logprob_diff_max']:.4g}", f"{served}_k3={step['sampler_kl_k3']:.4g}"]
print("drift: " + " ".join(summary))

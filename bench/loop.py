#!/usr/bin/env python3
"""Loop benchmark client (bench/loop starts the server): production traffic to a trained checkpoint, end to end.

Usage: loop.py BASE_URL KEY ENTITY BASE_MODEL     (knobs: BENCH_LOOP_* environment variables, see bench/README.md)

1. store     BENCH_LOOP_N chat completions with store: true on BASE_MODEL, the prompts of PROMPTS in turn (several
             answers each), seeded, temperature 1, metadata {"bench": "loop", "round": "before"}; then waits until
             the list route shows all of them.
2. feedback  the judge (judge() below) scores every third stored completion; each score is posted as Weave feedback
             (/feedback/create, Basic api:KEY) of type "judge", payload {"score": s}, on the completion's call ref
             weave:///ENTITY/default/call/<completion id>.
3. reward    a reward model fitted by the server from the judge's feedback: an rl dataset of the judged completions
             (rewards: the feedback's score), then /v1/reward-models with that dataset (good: above its median
             reward). Prints its held-out AUC.
4. job       an RL dataset (/v1/datasets, kind rl) of every stored completion of the round, its rewards from the reward
             model (reward.model); an RL
             job on a model created for it trains on it (dataset_id); waits for COMPLETED and prints the checkpoint's
             lineage.
5. judge     BENCH_LOOP_EVAL answers per prompt from the base model and from the new checkpoint (served by name), the
             same seeds for both, not stored; the judge's mean of each.
Last line: loop: stored=<n> feedback=<n> reward_auc=<x> judge_before=<x> judge_after=<x>
Only BASE_URL (loopback) is contacted.
"""
import base64
import concurrent.futures
import json
import os
import statistics
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

base, key, entity, model = sys.argv[1:5]
N = int(os.environ.get("BENCH_LOOP_N", "300"))
MAX_TOKENS = int(os.environ.get("BENCH_LOOP_MAX_TOKENS", "16"))
EVAL = int(os.environ.get("BENCH_LOOP_EVAL", "20"))
LR = float(os.environ.get("BENCH_LOOP_LR", "1e-4"))
SEED = int(os.environ.get("BENCH_SEED", "20251127"))
CLIENTS = int(os.environ.get("BENCH_LOOP_CLIENTS", "4"))
EVAL_SEED = SEED + 1_000_000
PROJECT = "default"
METADATA = {"bench": "loop", "round": "before"}
PROMPTS = [
    "Say something.",
    "Describe the sea.",
    "What is a good name for a cat?",
    "Write one line about the moon.",
    "List three colours.",
    "How are you today?",
    "Tell me a fact about bread.",
    "Finish this: the quick brown fox",
    "Give me a word that rhymes with light.",
    "What would you take to an island?",
]
if not base.startswith(("http://127.0.0.1:", "http://localhost:", "http://[::1]:")):
    raise SystemExit(f"loop.py talks to loopback only, got {base}")


def judge(answer):
    """The programmatic judge: the share of the answer's characters that are lowercase ASCII letters a to m, in
    [0, 1] (0 for an empty answer). Deterministic, and something sampling can move on any model: it rewards tokens
    made of those letters over others, whitespace and punctuation included."""
    if not answer:
        return 0.0
    return sum(1 for ch in answer if "a" <= ch <= "m") / len(answer)


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def call(method, path, body=None, authorization=None, timeout=1800, raw=False):
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Authorization": authorization or "Bearer " + key}
    if data is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data = response.read()
            return data if raw else json.loads(data)
    except urllib.error.HTTPError as e:
        raise ApiError(method, path, e.code, e.read().decode(errors="replace")[:2000]) from None


class ApiError(Exception):
    def __init__(self, method, path, status, body):
        super().__init__(f"{method} {path}: HTTP {status} {body}")
        self.status, self.body = status, body


def weave(method, path, body):
    """Weave's routes as its SDK calls them: Basic auth, user api, password KEY."""
    basic = "Basic " + base64.b64encode(f"api:{key}".encode()).decode()
    return call(method, path, body, authorization=basic)


def answer_of(completion):
    return completion["choices"][0]["message"].get("content") or ""


def sample(model_name, prompt, seed, store):
    body = {"model": model_name, "messages": [{"role": "user", "content": prompt}], "max_tokens": MAX_TOKENS,
            "temperature": 1.0, "seed": seed}
    if store:
        body.update(store=True, metadata=METADATA)
    return call("POST", "/v1/chat/completions", body)


def parallel(fn, items):
    with concurrent.futures.ThreadPoolExecutor(CLIENTS) as pool:
        return list(pool.map(fn, items))


def stored_completions():
    """Every stored completion of the round, oldest first, paging the list route."""
    out, after = [], None
    query = {"metadata[bench]": "loop", "metadata[round]": "before", "limit": "100", "order": "asc"}
    while True:
        q = dict(query, **({"after": after} if after else {}))
        page = call("GET", "/v1/chat/completions?" + urllib.parse.urlencode(q))
        out += page["data"]
        if not page["has_more"]:
            return out
        after = page["last_id"]


phases = []


def phase(name):
    print(f"-- {name}: load average {load()}", flush=True)
    phases.append((name, time.monotonic()))


def phase_done():
    name, start = phases[-1]
    took = time.monotonic() - start
    print(f"   {name} took {took:.1f} s", flush=True)


print(f"loop: server {base}, model {model}, n={N}, max_tokens={MAX_TOKENS}, eval={EVAL}/prompt, lr={LR}, "
      f"seed={SEED}, clients={CLIENTS}; load average at start {load()}", flush=True)

# 1. stored completions
phase("store")
plan = [(PROMPTS[i % len(PROMPTS)], SEED + i) for i in range(N)]
answered = parallel(lambda p: sample(model, p[0], p[1], True)["id"], plan)
deadline = time.monotonic() + 120
while True:
    stored = stored_completions()
    if len(stored) >= N or time.monotonic() > deadline:
        break
    time.sleep(0.5)
ids = {c["id"] for c in stored}
print(f"   {len(answered)} answered, {len(stored)} stored "
      f"({sum(1 for a in answered if a in ids)} of the answered ids listed)", flush=True)
phase_done()

# 2. the judge's feedback on every third one
phase("feedback")
judged = stored[::3]


def rate(completion):
    score = judge(answer_of(completion))
    row = weave("POST", "/feedback/create", {
        "project_id": f"{entity}/{PROJECT}", "weave_ref": f"weave:///{entity}/{PROJECT}/call/{completion['id']}",
        "feedback_type": "judge", "payload": {"score": score}, "creator": None})
    return row["id"]


feedback_ids = parallel(rate, judged)
round_scores = [judge(answer_of(c)) for c in stored]
print(f"   {len(feedback_ids)} feedback rows; judge over all stored answers: mean {statistics.fmean(round_scores):.4f}",
      flush=True)
phase_done()

# 3. a reward model fitted from the judge's feedback: an rl dataset of the judged completions (rewards: the feedback's
# score), fitted by the server with each trajectory labelled good above the dataset's median reward
phase("reward")
judged_set = call("POST", "/v1/datasets", {"name": "loop judged", "project": PROJECT, "kind": "rl",
                                           "filter": {"metadata": METADATA},
                                           "feedback": {"type": "judge", "payload_path": "score"}})
reward = call("POST", "/v1/reward-models", {"name": "loop-judge", "project": PROJECT, "dataset": judged_set["id"]})
auc = reward["metrics"]["auc"]
print(f"   dataset {judged_set['id']} of the judged completions: {judged_set['rows']} groups, "
      f"{judged_set['completion_count']} completions, {judged_set['feedback_count']} feedback rows", flush=True)
print(f"   reward model {reward['id']} v{reward['version']} fitted from it (good: above its median reward): "
      f"metrics {json.dumps(reward['metrics'])}", flush=True)
print(f"   reward model held-out AUC {auc:.4f}", flush=True)
phase_done()

# 4. an RL dataset scored by the reward model, and a job on it
phase("job")
dataset_body = {"name": "loop rl", "project": PROJECT, "kind": "rl", "filter": {"metadata": METADATA},
                "feedback": {"type": "judge"}, "reward": {"model": reward["id"]}}
dataset = call("POST", "/v1/datasets", dataset_body)
source = f"reward model {reward['id']}"
content = call("GET", f"/v1/datasets/{dataset['id']}/content", raw=True).decode()
groups = [json.loads(line) for line in content.splitlines() if line.strip()]
trajectories = sum(len(g["trajectories"]) for g in groups)
rewards = [t["reward"] for g in groups for t in g["trajectories"]]
print(f"   dataset {dataset['id']}: {dataset['rows']} groups, {trajectories} trajectories, rewards from {source} "
      f"(mean {statistics.fmean(rewards):.4f}, min {min(rewards):.4f}, max {max(rewards):.4f})", flush=True)
name = f"loop-{int(time.time())}"
trained = call("POST", "/v1/preview/models", {"entity": None, "project": "loop", "name": name, "base_model": model,
                                              "return_existing": False})
job = call("POST", "/v1/preview/training-jobs", {
    "model_id": trained["id"], "dataset_id": dataset["id"],
    "experimental_config": {"learning_rate": LR, "allow_training_without_logprobs": True}})
while job["status"] not in ("COMPLETED", "FAILED", "CANCELLED"):
    time.sleep(1)
    job = call("GET", f"/v1/preview/training-jobs/{job['id']}")
events = call("GET", f"/v1/preview/training-jobs/{job['id']}/events?limit=100")["data"]
steps = [e["data"] for e in events if e["type"] == "gradient_step"]
started = next((e["data"] for e in events if e["type"] == "training_started"), {})
print(f"   job {job['id']}: {job['status']} step {job.get('result_step')}; started {json.dumps(started)}; "
      f"{len(steps)} gradient steps, losses {[round(s.get('loss', float('nan')), 5) for s in steps]}", flush=True)
if job["status"] != "COMPLETED":
    raise SystemExit(f"the RL job ended {job['status']}: {job.get('error_message')}")
lineage = call("GET", f"/v1/preview/models/{trained['id']}/checkpoints/{job['result_step']}/lineage")["datasets"]
print(f"   checkpoint {job['result_step']} lineage: " + ", ".join(
    f"{d['id']} ({len(d['completion_ids'])} completions, {len(d['feedback_ids'])} feedback rows)" for d in lineage),
    flush=True)
phase_done()

# 5. the judge on the base model and on the new checkpoint, same prompts and seeds
phase("judge")
checkpoint = f"crucible:///{entity}/loop/{name}"
evals = [(p, EVAL_SEED + j * len(PROMPTS) + i) for i, p in enumerate(PROMPTS) for j in range(EVAL)]
before = parallel(lambda p: judge(answer_of(sample(model, p[0], p[1], False))), evals)
after = parallel(lambda p: judge(answer_of(sample(checkpoint, p[0], p[1], False))), evals)
diffs = [a - b for a, b in zip(after, before)]
se = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else float("nan")
print(f"   {len(evals)} answers each: {model} mean {statistics.fmean(before):.4f}, {checkpoint} mean "
      f"{statistics.fmean(after):.4f}; paired difference {statistics.fmean(diffs):+.4f} (standard error {se:.4f}); "
      f"{sum(1 for d in diffs if d != 0)} of {len(diffs)} answers changed score", flush=True)
phase_done()

print(f"loop: load average at the end {load()}", flush=True)
print(f"loop: stored={len(stored)} feedback={len(feedback_ids)} reward_auc={auc:.4f} "
      f"judge_before={statistics.fmean(before):.4f} judge_after={statistics.fmean(after):.4f}", flush=True)

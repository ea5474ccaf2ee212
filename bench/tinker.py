#!/usr/bin/env python3
"""Tinker benchmark client (bench/tinker starts the server): the primitives against the interface's job and chat APIs.

Usage: tinker.py BASE_URL KEY BASE_MODEL     (knobs: BENCH_TINKER_* environment variables, see bench/README.md)

1. Training. One chat (a user turn and an assistant turn) sized to about BENCH_TINKER_TOKENS tokens, the assistant's
   part about half of them. The SFT side uploads BENCH_TINKER_SEQS copies of it per step as a JSONL file (/v1/files,
   as `crucible train sft` does) and runs one SFT job over them (batch_size BENCH_TINKER_SEQS). The primitives side
   sends the same token ids as Tinker datums (model_input = tokens[:-1], target_tokens = tokens[1:], weight 1 exactly
   where SFT trains: the assistant's tokens), BENCH_TINKER_SEQS datums per forward_backward, then optim_step. The ids
   come from the server's own chat template and tokenizer (/v1/chat/completions with return_token_ids), and the
   job's gradient_step events say how many tokens and trained tokens each SFT step had: the bench checks they match.
2. Sampling. One user message through /v1/chat/completions (n, max_tokens, ignore_eos, logprobs) and the same prompt
   token ids through asample (num_samples n, max_tokens m; asample ignores EOS and always returns logprobs), on the
   base model and on the primitives run's sampler weights (served by name to chat as crucible:///ENTITY/tinker/run-ID).
"""
import calendar
import json
import os
import platform
import statistics
import sys
import time
import urllib.error
import urllib.request
import uuid

base, key, model = sys.argv[1:4]
SEQS = int(os.environ.get("BENCH_TINKER_SEQS", "2"))
TOKENS = int(os.environ.get("BENCH_TINKER_TOKENS", "256"))
WARMUP, STEPS = (int(x) for x in os.environ.get("BENCH_TINKER_STEPS", "1+6").split("+"))
LR = float(os.environ.get("BENCH_TINKER_LR", "1e-4"))
RANK = int(os.environ.get("BENCH_TINKER_RANK", "8"))
N = int(os.environ.get("BENCH_TINKER_SAMPLES", "4"))
M = int(os.environ.get("BENCH_TINKER_MAX_TOKENS", "64"))
ROUNDS = int(os.environ.get("BENCH_TINKER_SAMPLE_ROUNDS", "3"))
TEMPERATURE = float(os.environ.get("BENCH_TINKER_TEMPERATURE", "1.0"))
PARTS = os.environ.get("BENCH_TINKER_PARTS", "train sample").split()
PAIRS = int(os.environ.get("BENCH_TINKER_PAIRS", "1"))
PROCESS_WARMUP = int(os.environ.get("BENCH_TINKER_PROCESS_WARMUP", "2"))
INTERLEAVE = int(os.environ.get("BENCH_TINKER_INTERLEAVE", "0"))
ORDER = os.environ.get("BENCH_TINKER_ORDER", "sft primitives").split()
if sorted(ORDER) != ["primitives", "sft"]:
    raise SystemExit(f"BENCH_TINKER_ORDER must name sft and primitives once each, got {ORDER}")
WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec "
         "romeo sierra tango uniform victor whiskey xray yankee zulu").split()


class OperationFailed(Exception):
    """A future that answered a failure ({"error", "category"})."""


def load():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def call(method, path, body=None, headers=None, raw=None, timeout=1800):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    h = {"Content-Type": "application/json"} if raw is None and body is not None else {}
    h.update(headers or {})
    request = urllib.request.Request(base + path, data=data, headers=h, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as e:
        raise SystemExit(f"{method} {path}: HTTP {e.code} {e.read().decode(errors='replace')[:2000]}")


def api(method, path, body=None, **kw):
    """The interface's routes: Authorization: Bearer KEY."""
    return call(method, path, body, {"Authorization": "Bearer " + key, **kw.pop("headers", {})}, **kw)


def tinker(route, body):
    """Tinker's routes as the SDK sends them: X-API-Key: tml-KEY, under /api/v1."""
    return call("POST", "/api/v1/" + route, body, {"X-API-Key": "tml-" + key,
                                                   "X-Idempotency-Key": f"stainless-python-retry-{uuid.uuid4()}"})


def await_future(request_id):
    """Polls retrieve_future (the server long-polls) until the result or a failure."""
    while True:
        reply = tinker("retrieve_future", {"request_id": request_id, "allow_metadata_only": True})
        if reply.get("type") != "try_again":
            if "error" in reply and "category" in reply:
                raise OperationFailed(f"operation {request_id} failed: {reply}")
            return reply


def chat_ids(messages, generation_prompt=True):
    """The prompt token ids the server's template and tokenizer make of `messages`."""
    reply = api("POST", "/v1/chat/completions", {"model": model, "messages": messages, "max_tokens": 1,
                                                 "temperature": 0, "return_token_ids": True,
                                                 "add_generation_prompt": generation_prompt})
    return reply["prompt_token_ids"]


def text(words, offset):
    return " ".join(WORDS[(i * 7 + offset) % len(WORDS)] for i in range(max(1, words)))


def sized_chat():
    """A user and an assistant turn of about TOKENS tokens in all, the assistant's about half, and its token ids."""
    user_words = assistant_words = max(1, TOKENS // 8)
    fixed = len(chat_ids([{"role": "user", "content": "Repeat after me: x"}])) - 1
    for _ in range(5):
        messages = [{"role": "user", "content": "Repeat after me: " + text(user_words, 0)},
                    {"role": "assistant", "content": text(assistant_words, 3)}]
        prefix = chat_ids(messages[:1])
        whole = chat_ids(messages, generation_prompt=False)
        trained = len(whole) - len(prefix)
        if abs(len(whole) - TOKENS) <= max(2, TOKENS // 50) and trained > 0:
            break
        # scale each part towards its half, from the tokens per word seen
        want_trained = TOKENS // 2
        want_prompt = TOKENS - want_trained
        assistant_words = max(1, round(assistant_words * want_trained / max(1, trained)))
        user_words = max(1, round(user_words * max(1, want_prompt - fixed) / max(1, len(prefix) - fixed)))
    return messages, prefix, whole


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def fmt_list(xs, digits=2):
    return "[" + ", ".join(f"{x:.{digits}f}" for x in xs) + "]"


def sft(messages, lines):
    """One SFT job over `lines` copies of the chat; the job's record, its gradient_step events and the wall time."""
    made = api("POST", "/v1/preview/models", {"entity": None, "project": "bench", "name": f"sft-{time.time_ns()}",
                                              "base_model": model, "return_existing": False})
    boundary = f"bench-{uuid.uuid4()}"
    jsonl = "".join(json.dumps({"messages": messages}) + "\n" for _ in range(lines)).encode()
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nfine-tune\r\n--{boundary}\r\n"
            f"Content-Disposition: form-data; name=\"file\"; filename=\"bench.jsonl\"\r\n"
            f"Content-Type: application/octet-stream\r\n\r\n").encode() + jsonl + f"\r\n--{boundary}--\r\n".encode()
    start = time.perf_counter()
    uploaded = api("POST", "/v1/files", raw=body, headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    job = api("POST", "/v1/preview/sft-training-jobs", {"model_id": made["id"], "training_data_url": uploaded["id"],
                                                        "config": {"batch_size": SEQS, "learning_rate": LR}})
    while True:
        record = api("GET", f"/v1/preview/training-jobs/{job['id']}")
        if record["status"] in ("COMPLETED", "FAILED", "CANCELLED"):
            break
        time.sleep(0.2)
    wall = time.perf_counter() - start
    if record["status"] != "COMPLETED":
        raise SystemExit(f"the SFT job ended {record['status']}: {record.get('error_message')}")
    events, after = [], None
    while True:
        page = api("GET", f"/v1/preview/training-jobs/{job['id']}/events?limit=100"
                   + (f"&after={after}" if after else ""))
        events += page["data"]
        if not page.get("has_more") or not page["data"]:
            break
        after = page["last_id"]
    steps = [e for e in events if e["type"] == "gradient_step"]
    return record, steps, wall


def seconds(iso):
    """An ISO-8601 instant (as the server writes it, Z and up to nanoseconds) in seconds since the epoch."""
    day, clock = iso.rstrip("Z").split("T")
    whole, _, frac = clock.partition(".")
    t = calendar.timegm(time.strptime(day + "T" + whole, "%Y-%m-%dT%H:%M:%S"))
    return t + (float("0." + frac) if frac else 0.0)


def datum(tokens, first_trained):
    """Tinker's cross_entropy datum for one sequence: position i reads tokens[:i+1] and predicts tokens[i+1],
    weighted 1 where SFT trains tokens[i+1] (i + 1 >= first_trained), 0 elsewhere."""
    inputs, targets = tokens[:-1], tokens[1:]
    weights = [1.0 if i + 1 >= first_trained else 0.0 for i in range(len(inputs))]
    return {"model_input": {"chunks": [{"tokens": inputs, "type": "encoded_text"}]},
            "loss_fn_inputs": {"target_tokens": {"data": targets, "dtype": "int64", "shape": [len(targets)]},
                               "weights": {"data": weights, "dtype": "float32", "shape": [len(weights)]}}}


def new_run(tokens, first_trained):
    """A session and a LoRA run (rank RANK, attention and MLP, as the SFT job's adapter), and the step's datums."""
    session = tinker("create_session", {"tags": ["bench"], "user_metadata": {}, "sdk_version": "bench",
                                        "type": "create_session"})["session_id"]
    created = await_future(tinker("create_model", {
        "session_id": session, "model_seq_id": 0, "base_model": model, "type": "create_model",
        "lora_config": {"rank": RANK, "seed": 3, "train_unembed": False, "train_mlp": True, "train_attn": True}})
        ["request_id"])
    return session, created["model_id"], [datum(tokens, first_trained) for _ in range(SEQS)]


def primitive_step(run, seq, data):
    """One cookbook step: forward_backward and optim_step submitted back to back, then both futures awaited. Returns
    the last seq_id used, the time from sending forward_backward to optim_step's result, and loss:sum."""
    t0 = time.perf_counter()
    fb = tinker("forward_backward", {"model_id": run, "seq_id": seq + 1, "type": "forward_backward",
                                     "forward_backward_input": {"data": data, "loss_fn": "cross_entropy"}})
    opt = tinker("optim_step", {"model_id": run, "seq_id": seq + 2, "type": "optim_step", "adam_params": {
        "learning_rate": LR, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8, "weight_decay": 0.01,
        "grad_clip_norm": 1.0}})
    result = await_future(fb["request_id"])
    await_future(opt["request_id"])
    return seq + 2, time.perf_counter() - t0, result["metrics"]["loss:sum"]


def primitives(tokens, first_trained, steps):
    """A cookbook SFT loop of `steps` steps on a new run. Returns the session, run, last seq_id, step times, losses and
    the time from create_model to the last result."""
    start = time.perf_counter()
    session, run, data = new_run(tokens, first_trained)
    seq, times, losses = 0, [], []
    for _ in range(steps):
        seq, took, loss = primitive_step(run, seq, data)
        times.append(took)
        losses.append(loss)
    return session, run, seq, times, losses, time.perf_counter() - start


def job_side(messages, steps, length, trained, label="SFT job"):
    """One SFT job of `steps` steps; its steps' own times and the gaps between its step events."""
    print(f"[training: {label}] load average {load()} before")
    record, events, wall = sft(messages, SEQS * steps)
    shapes = {(e["data"]["num_tokens"], e["data"]["num_trainable_tokens"]) for e in events}
    same = len(events) == steps and shapes == {(SEQS * length, SEQS * trained)}
    print(f"  same tokens: the job's {len(events)} gradient_step events report (tokens, trained) per step "
          f"{sorted(shapes)}; the datums carry {(SEQS * length, SEQS * trained)}: {'equal' if same else 'DIFFERENT'}")
    own = [e["data"]["num_trainable_tokens"] / e["data"]["trainable_tokens_per_second"] for e in events]
    stamps = [seconds(e["created_at"]) for e in events]
    gaps = [b - a for a, b in zip(stamps, stamps[1:])]
    queued = seconds(record["training_start"]) - seconds(record["created_at"]) if record.get("training_start") else 0
    in_job = (seconds(record["training_end"]) - seconds(record["training_start"])
              if record.get("training_start") and record.get("training_end") else float("nan"))
    print(f"  steps' own time (s)          {fmt_list(own)}")
    print(f"  gaps between step events (s) {fmt_list(gaps)}")
    print(f"  job: {wall:.1f} s from upload to COMPLETED seen (queued {queued:.2f} s, training {in_job:.1f} s)")
    # gap i is the interval ending at step i + 1's event: the timed steps' gaps start at WARMUP - 1
    return {"same": same, "own": own[WARMUP:], "gaps": gaps[max(0, WARMUP - 1):], "wall": wall}


def primitives_side(whole, first_trained, steps, label="primitives"):
    """One primitives run of `steps` steps, left loaded (the sampling part samples its weights)."""
    print(f"[training: {label}] load average {load()} before")
    session, run, seq, times, losses, wall = primitives(whole, first_trained, steps)
    print(f"  step times (s)               {fmt_list(times)}")
    print(f"  loss:sum by step             {fmt_list(losses, 3)}")
    print(f"  run: {wall:.1f} s from create_model to the last optim_step's result")
    return {"session": session, "run": run, "seq": seq, "times": times[WARMUP:], "wall": wall}


def train():
    print(f"[training] load average {load()} (1, 5, 15 min) before sizing the chat")
    messages, prefix, whole = sized_chat()
    length, first_trained = len(whole), len(prefix)
    trained = length - first_trained
    steps = WARMUP + STEPS
    print(f"  workload  {PAIRS} pair(s) of an SFT job and a primitives run, each {steps} steps ({WARMUP} warm-up + "
          f"{STEPS} timed) of {SEQS} sequences x {length} tokens, the last {trained} of each trained (the assistant's "
          f"turn; {SEQS * trained} trainable tokens per step), LoRA r={RANK} on q k v o gate up down, cross-entropy, "
          f"learning rate {LR}; the order alternates from pair to pair")

    if PROCESS_WARMUP > 0:
        # A process's first training steps are slow, for many steps on a small model (the JVM compiling the Java side,
        # PyTorch's first calls): both paths run untimed first, so that neither timed side pays for going first.
        run = primitives_side(whole, first_trained, PROCESS_WARMUP, "process warm-up, primitives, untimed")["run"]
        await_future(tinker("unload_model", {"model_id": run, "type": "unload_model"})["request_id"])
        job_side(messages, PROCESS_WARMUP, length, trained, "process warm-up, SFT job, untimed")

    jobs, runs, pair_costs = [], [], []
    for pair in range(PAIRS):
        order = ORDER if pair % 2 == 0 else ORDER[::-1]
        for side in order:
            if side == "sft":
                jobs.append(job_side(messages, steps, length, trained))
            else:
                if runs:
                    await_future(tinker("unload_model", {"model_id": runs[-1]["run"],
                                                         "type": "unload_model"})["request_id"])
                runs.append(primitives_side(whole, first_trained, steps))
        pair_costs.append(median(runs[-1]["times"]) / median(jobs[-1]["own"]))

    per_step = SEQS * trained
    own = [t for j in jobs for t in j["own"]]
    gaps = [t for j in jobs for t in j["gaps"]]
    times = [t for r in runs for t in r["times"]]
    sft_wall = median([j["wall"] for j in jobs])
    prim_wall = median([r["wall"] for r in runs])
    sft_rate, gap_rate, prim_rate = per_step / median(own), per_step / median(gaps), per_step / median(times)
    rows = [(f"training, trainable tokens/s (median of {len(times)} timed steps)", "tokens/s", "step (s)"),
            ("SFT job: a step's own time (forward, backward, AdamW)", sft_rate, median(own)),
            ("SFT job: between step events (+ event write, next batch)", gap_rate, median(gaps)),
            ("primitives: forward_backward + optim_step, HTTP and futures", prim_rate, median(times)),
            (f"SFT job whole: upload to COMPLETED seen, all {steps} steps", per_step * steps / sft_wall,
             sft_wall / steps),
            (f"primitives whole: create_model to last result, all {steps} steps", per_step * steps / prim_wall,
             prim_wall / steps)]
    print()
    for i, (label, rate, step) in enumerate(rows):
        cells = (rate, step) if i == 0 else (f"{rate:.1f}", f"{step:.3f}")
        print(f"| {label:62s} | {cells[0]:>8s} | {cells[1]:>8s} |")
        if i == 0:
            print(f"| {'-' * 62} | {'-' * 8} | {'-' * 8} |")
    print(f"  primitives cost {sft_rate / prim_rate:.3f}x the SFT job's step time, "
          f"{gap_rate / prim_rate:.3f}x its step-event interval (target: at most 1.10); per pair "
          f"{fmt_list(pair_costs, 3)}")
    return {"sft_step_rate": sft_rate, "sft_gap_rate": gap_rate, "primitives_rate": prim_rate,
            "same_tokens": all(j["same"] for j in jobs), **{k: runs[-1][k] for k in ("session", "run", "seq")}}


def interleaved(rounds):
    """Single steps of the two paths alternating, so that the machine's drift (minutes) falls on both alike: per round
    one SFT job of two steps (its second step's own time) and one step of a primitives run kept loaded, the order
    swapped every round. Returns the median of the rounds' ratios (primitives step / SFT step)."""
    print(f"[training, interleaved] load average {load()} before sizing the chat")
    messages, prefix, whole = sized_chat()
    length, first_trained = len(whole), len(prefix)
    print(f"  workload  {rounds} rounds of one SFT step and one primitives step, each {SEQS} sequences x {length} "
          f"tokens, the last {length - first_trained} of each trained; LoRA r={RANK}, cross-entropy, learning rate {LR}")
    if PROCESS_WARMUP > 0:
        run = primitives_side(whole, first_trained, PROCESS_WARMUP, "process warm-up, primitives, untimed")["run"]
        await_future(tinker("unload_model", {"model_id": run, "type": "unload_model"})["request_id"])
        job_side(messages, PROCESS_WARMUP, length, length - first_trained, "process warm-up, SFT job, untimed")
    _, run, data = new_run(whole, first_trained)
    seq, _, _ = primitive_step(run, 0, data)  # the run's first step, untimed
    ratios = []
    for r in range(rounds):
        took = {}
        for side in (("sft", "primitives") if r % 2 == 0 else ("primitives", "sft")):
            if side == "sft":
                _, events, _ = sft(messages, SEQS * 2)
                last = events[-1]["data"]
                took[side] = last["num_trainable_tokens"] / last["trainable_tokens_per_second"]
            else:
                seq, took[side], _ = primitive_step(run, seq, data)
        ratios.append(took["primitives"] / took["sft"])
        print(f"  round {r + 1:2d}: SFT step {took['sft']:6.2f} s, primitives step {took['primitives']:6.2f} s, "
              f"ratio {ratios[-1]:.3f}; load average {load()}", flush=True)
    await_future(tinker("unload_model", {"model_id": run, "type": "unload_model"})["request_id"])
    cost = median(ratios)
    print(f"  primitives cost {cost:.3f}x the SFT step, median of {rounds} rounds (min {min(ratios):.3f}, max "
          f"{max(ratios):.3f}; target: at most 1.10)")
    return cost


def sample_rounds(label, chat_model, sampler, prompt_ids, chat_body):
    """ROUNDS timed requests on each side (after one untimed each), alternating; generated tokens per wall second."""
    chat_rates, chat_tokens, tinker_rates, tinker_tokens = [], [], [], []
    for r in range(ROUNDS + 1):
        body = dict(chat_body, model=chat_model, seed=1000 + r)
        t0 = time.perf_counter()
        reply = api("POST", "/v1/chat/completions", body)
        dt = time.perf_counter() - t0
        if reply["prompt_token_ids"] != prompt_ids:
            raise SystemExit(f"{label}: the chat's prompt ids changed between rounds")
        generated = reply["usage"]["completion_tokens"]
        t0 = time.perf_counter()
        params = {"max_tokens": M, "temperature": TEMPERATURE, "seed": 1000 + r}
        submitted = tinker("asample", {"sampling_session_id": sampler, "seq_id": sample_rounds.seq, "num_samples": N,
                                       "prompt": {"chunks": [{"tokens": prompt_ids, "type": "encoded_text"}]},
                                       "sampling_params": params, "prompt_logprobs": False,
                                       "topk_prompt_logprobs": 0, "type": "sample"})
        sample_rounds.seq += 1
        result = await_future(submitted["request_id"])
        ds = time.perf_counter() - t0
        sampled = sum(len(s["tokens"]) for s in result["sequences"])
        if r > 0:
            chat_rates.append(generated / dt)
            chat_tokens.append(generated)
            tinker_rates.append(sampled / ds)
            tinker_tokens.append(sampled)
    return chat_rates, chat_tokens, tinker_rates, tinker_tokens


sample_rounds.seq = 0


def sample(trained):
    print(f"\n[sampling] load average {load()} before")
    question = [{"role": "user", "content": "Write a long story about " + text(12, 5)}]
    chat_body = {"messages": question, "n": N, "max_tokens": M, "min_tokens": M, "ignore_eos": True,
                 "temperature": TEMPERATURE, "logprobs": True, "return_token_ids": True}
    targets = [("base model", model, tinker("create_sampling_session", {"base_model": model})
                ["sampling_session_id"])]
    if trained:
        path = await_future(tinker("save_weights_for_sampler", {"model_id": trained["run"], "path": "bench",
                                                                "seq_id": trained["seq"] + 1})["request_id"])["path"]
        entity = os.environ.get("BENCH_TINKER_ENTITY", "bench")
        targets.append(("run's sampler weights (LoRA)", f"crucible:///{entity}/tinker/run-{trained['run']}",
                        tinker("create_sampling_session", {"session_id": trained["session"],
                                                           "sampling_session_seq_id": 0, "model_path": path})
                        ["sampling_session_id"]))
    prompt_ids = api("POST", "/v1/chat/completions", dict(chat_body, model=model, n=1, max_tokens=1, min_tokens=1,
                                                          logprobs=False))["prompt_token_ids"]
    print(f"  workload  {len(prompt_ids)} prompt tokens (the chat's own ids, sent to asample), n = num_samples = {N}, "
          f"{M} tokens each (chat: ignore_eos + min_tokens; asample: EOS does not stop it), temperature "
          f"{TEMPERATURE}, seeded, logprobs of the sampled tokens on both sides; {ROUNDS} timed rounds after one "
          f"untimed, the two sides alternating")
    print(f"\n| sampling, generated tokens/s (median)  | chat/completions | asample | asample / chat | tokens per "
          f"request (chat, asample) |")
    print(f"| -------------------------------------- | ---------------- | ------- | -------------- | "
          f"------------------------------- |")
    ratios = []
    for label, chat_model, sampler in targets:
        try:
            chat_rates, chat_tokens, tinker_rates, tinker_tokens = sample_rounds(label, chat_model, sampler,
                                                                                 prompt_ids, chat_body)
        except OperationFailed as failed:
            print(f"| {label:38s} | failed: {failed}")
            ratios.append(float("nan"))
            continue
        ratio = median(tinker_rates) / median(chat_rates)
        ratios.append(ratio)
        print(f"| {label:38s} | {median(chat_rates):16.1f} | {median(tinker_rates):7.1f} | {ratio:14.3f} | "
              f"{sorted(set(chat_tokens))}, {sorted(set(tinker_tokens))} |")
    print(f"  per round: the time from sending the request to its whole answer (asample: submit, then "
          f"retrieve_future); load average {load()} after")
    return ratios


def main():
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               platform.processor())
    print(f"Tinker primitives against the job and chat APIs on '{model}' ({time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}, "
          f"{cpu}, {os.cpu_count()} CPUs; load average {load()})")
    tinker("client/config", {"sdk_version": "bench"})
    interleave_cost = interleaved(INTERLEAVE) if INTERLEAVE > 0 else None
    trained = train() if "train" in PARTS else None
    ratios = sample(trained) if "sample" in PARTS else []
    summary = []
    if trained:
        summary.append(f"train_cost={trained['sft_step_rate'] / trained['primitives_rate']:.3f} "
                       f"same_tokens={'yes' if trained['same_tokens'] else 'NO'}")
    if interleave_cost is not None:
        summary.append(f"train_cost_interleaved={interleave_cost:.3f}")
    if ratios:
        summary.append("sample_ratio=" + ",".join(f"{r:.3f}" for r in ratios))
    print(f"tinker: model={model} " + " ".join(summary) + f" load={load()}")


main()

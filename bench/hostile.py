"""Hostile-tenant benchmark driver (bench/hostile runs it). Replays issue 22's table of small hostile requests from
one tenant against a running Crucible while another tenant sends short chats, samples the server's resident memory,
and prints, last, `hostile: worst_ms=... worst_rss_mb=... others_p50_slowdown=...`. Standard library only; every
connection goes to 127.0.0.1."""
import base64, http.client, io, json, os, signal, socket, statistics, sys, threading, time, uuid, zipfile

port, hostile_key, other_key, pid, workdir = (int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]),
                                              sys.argv[5])
MODEL = "crucible-tiny"
LIMIT_S = 30  # a hostile request unanswered after this long counts as this long (the target is 2 s)


def request(method, path, key, body=None, headers=None, timeout=LIMIT_S):
    """(status, seconds, body text, headers) of one request; a timeout or a reset connection is its own status."""
    h = {"Authorization": "Bearer " + key} if key else {}
    h.update(headers or {})
    data = body
    if isinstance(body, (dict, list)):
        data = json.dumps(body).encode()
        h["Content-Type"] = "application/json"
    t = time.monotonic()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        c.request(method, path, body=data, headers=h)
        r = c.getresponse()
        text = r.read().decode(errors="replace")
        c.close()
        return r.status, time.monotonic() - t, text, dict(r.getheaders())
    except Exception as e:
        return type(e).__name__, time.monotonic() - t, str(e), {}


def chat(key, extra, max_tokens=8, timeout=LIMIT_S):
    body = {"model": MODEL, "messages": [{"role": "user", "content": "Say something."}], "max_tokens": max_tokens,
            "temperature": 0}
    body.update(extra)
    return request("POST", "/v1/chat/completions", key, body, timeout=timeout)


def weave(path, body):
    basic = base64.b64encode(("api:" + hostile_key).encode()).decode()
    return request("POST", path, None, body, headers={"Authorization": "Basic " + basic})


class Rss(threading.Thread):
    """The server's resident memory every 50 ms."""

    def __init__(self):
        super().__init__(daemon=True)
        self.samples, self.stop = [], False

    def run(self):
        while not self.stop:
            try:
                with open(f"/proc/{pid}/status") as f:
                    for line in f:
                        if line.startswith("VmRSS:"):
                            self.samples.append(int(line.split()[1]) / 1024)
            except OSError:
                pass
            time.sleep(0.05)


class Others(threading.Thread):
    """Tenant 'other': one 8-token chat after another, each timed."""

    def __init__(self):
        super().__init__(daemon=True)
        self.latencies, self.failures, self.stop = [], [], False

    def run(self):
        while not self.stop:
            status, s, text, _ = chat(other_key, {}, timeout=120)
            (self.latencies if status == 200 else self.failures).append(s if status == 200 else (status, text[:120]))


def others_p50(n):
    out = [chat(other_key, {})[1] for _ in range(n)]
    return statistics.median(out)


def nested(depth, leaf, wrap):
    value = leaf
    for _ in range(depth):
        value = wrap(value)
    return value


def hostile_rows(model_id):
    """(name, thunk) pairs, each thunk returning request()'s tuple."""
    deep_in = {"$expr": nested(23, {"$getField": "payload.x"},
                               lambda e: {"$in": [e, [{"$literal": 1}, {"$literal": 2}]]})}
    schema = lambda d: {"type": "json_schema", "json_schema": {"name": "deep", "schema": nested(
        d, {"type": "integer"}, lambda s: {"type": "array", "items": s, "minItems": 0, "maxItems": 3})}}
    spec = "spec" + uuid.uuid4().hex[:8]
    zip_bytes = io.BytesIO()
    with zipfile.ZipFile(zip_bytes, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("adapter_config.json", '{"r": 8,' + " " * (16 * 1024 * 1024) + '"lora_alpha": 16}')
    boundary = uuid.uuid4().hex
    multipart = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"adapter\"; filename=\"a.zip\"\r\n"
                 f"Content-Type: application/zip\r\n\r\n").encode() + zip_bytes.getvalue() + \
        f"\r\n--{boundary}--\r\n".encode()
    cubic_template = "{% for m in messages %}" + "{% if m.role == 'user' %}{{ m.content }}{% endif %}" * 400 + \
        "{% endfor %}"
    rows = [
        ("feedback $in nested 23 deep", lambda: weave("/feedback/query", {"project_id": "hostile/p",
                                                                          "query": deep_in})),
        ("json_schema arrays nested 15 deep", lambda: chat(hostile_key, {"response_format": schema(15)})),
        ("json_schema arrays nested 26 deep", lambda: chat(hostile_key, {"response_format": schema(26)})),
        ("regex (a{1000}){200}", lambda: chat(hostile_key, {"structured_outputs": {"regex": "(a{1000}){200}"}})),
        ("regex (.{1000}){1000}", lambda: chat(hostile_key, {"structured_outputs": {"regex": "(.{1000}){1000}"}})),
        ("template calls Java 'ab'.repeat(3)", lambda: chat(hostile_key, {"chat_template": "{{ 'ab'.repeat(3) }}"})),
        ("template backtracking String.matches", lambda: chat(hostile_key, {
            "chat_template": "{{ '" + "a" * 40 + "'.matches('(a|aa)*c') }}"})),
        (f"request template of {len(cubic_template)} characters", lambda: chat(hostile_key, {
            "chat_template": cubic_template})),
        ("annotation pattern ^a*a*a*a*b on 5,000 a's", lambda: annotation(spec)),
        ("n: 1000", lambda: chat(hostile_key, {"n": 1000, "temperature": 1.0})),
        ("truncate_prompt_tokens: 0", lambda: chat(hostile_key, {"truncate_prompt_tokens": 0})),
        ("PEFT zip expanding 1000:1", lambda: request(
            "POST", f"/v1/preview/models/{model_id}/checkpoints", hostile_key, multipart,
            {"Content-Type": f"multipart/form-data; boundary={boundary}"})),
        ("SFT dataset on [::ffff:127.0.0.1] (job end)", lambda: sft_job_end(model_id)),
        ("invalid regex of 200 KB", lambda: chat(hostile_key, {"structured_outputs": {
            "regex": "(" + "a\n" * 100_000}})),
        ("/metrics without a key", lambda: request("GET", "/metrics", None)),
    ]
    return rows


def annotation(spec):
    created = weave("/obj/create", {"obj": {"project_id": "hostile/p", "object_id": spec, "val": {
        "field_schema": {"type": "string", "pattern": "^a*a*a*a*b"}}, "builtin_object_class": "AnnotationSpec"}})
    if created[0] != 200:
        return created  # refused at creation (a pattern the server will not run): that is an answer too
    return weave("/feedback/create", {"project_id": "hostile/p", "weave_ref": "weave:///hostile/p/object/x:abc",
                                      "feedback_type": "wandb.annotation." + spec,
                                      "annotation_ref": f"weave:///hostile/p/object/{spec}:latest",
                                      "payload": {"value": "a" * 5000}})


def sft_job_end(model_id):
    """An SFT job whose dataset URL is a special-purpose address (loopback however it is read): the time until the job
    has ended, and its end (the guard refuses it when it downloads; the message must name no address)."""
    t = time.monotonic()
    created = request("POST", "/v1/preview/sft-training-jobs", hostile_key, {
        "model_id": model_id, "training_data_url": "http://[::ffff:127.0.0.1]:9/train.jsonl"})
    if created[0] != 200:
        return created
    job = json.loads(created[2])["id"]
    while time.monotonic() - t < LIMIT_S:
        status, _, text, headers = request("GET", f"/v1/preview/training-jobs/{job}", hostile_key)
        if status == 200 and json.loads(text)["status"] in ("FAILED", "COMPLETED", "CANCELLED"):
            end = json.loads(text)
            return end["status"], time.monotonic() - t, str(end.get("error_message")), headers
        time.sleep(0.1)
    return "unfinished", time.monotonic() - t, "", {}


def idle_uploads(n):
    """Connections that declare a 256 MiB upload, send a few bytes, then idle; closed by the caller."""
    socks = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall((f"POST /v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {hostile_key}\r\n"
                   f"Content-Type: multipart/form-data; boundary=x\r\nContent-Length: {256 << 20}\r\n\r\n"
                   "--x\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\n").encode())
        socks.append(s)
    return socks


def grammar_load(stop):
    """Tenant 'hostile' decoding under an ambiguous grammar, one request after another from each of
    BENCH_HOSTILE_GRAMMAR_CLIENTS clients (1, as in the issue)."""
    def loop():
        while not stop.is_set():
            chat(hostile_key, {"structured_outputs": {"grammar": "root ::= x\nx ::= x x | \"a\""}}, max_tokens=64)
    clients = int(os.environ.get("BENCH_HOSTILE_GRAMMAR_CLIENTS", "1"))
    threads = [threading.Thread(target=loop, daemon=True) for _ in range(clients)]
    for t in threads:
        t.start()
    return threads


def kill_database():
    """kill -9 of the embedded PostgreSQL, then writes until one succeeds: each answer's status and time."""
    pid_file = os.path.join(workdir, "data", "postgres", "postmaster.pid")
    with open(pid_file) as f:
        postmaster = int(f.readline())
    os.kill(postmaster, signal.SIGKILL)
    killed, answers = time.monotonic(), []
    while time.monotonic() - killed < 60:
        status, s, text, headers = weave("/feedback/create", {
            "project_id": "hostile/p", "weave_ref": "weave:///hostile/p/object/x:abc",
            "feedback_type": "wandb.note.1", "payload": {"note": "after the kill"}})
        answers.append((status, s, headers.get("Retry-After")))
        if status == 200:
            return answers, time.monotonic() - killed
        time.sleep(0.2)
    return answers, None


def main():
    load = lambda: open("/proc/loadavg").read().split()[:3]
    print(f"load average at start: {' '.join(load())}")
    model = request("POST", "/v1/preview/models", hostile_key, {"entity": None, "project": "p", "name": "hostile",
                                                                "base_model": MODEL, "return_existing": True})
    model_id = json.loads(model[2]).get("id") if model[0] == 200 else str(uuid.uuid4())
    chat(other_key, {})  # warm-up
    idle = others_p50(15)
    rss = Rss()
    rss.start()
    time.sleep(0.5)
    idle_rss = statistics.median(rss.samples)
    print(f"idle: other tenant's 8-token chat p50 {idle * 1000:.0f} ms, server RSS {idle_rss:.0f} MB")

    stop = threading.Event()
    loaders = grammar_load(stop)
    socks = idle_uploads(2)
    others = Others()
    others.start()
    worst = 0.0
    print(f"{'hostile request':44s} {'status':>8s} {'ms':>8s} {'body bytes':>10s}")
    for name, thunk in hostile_rows(model_id):
        status, s, text, _ = thunk()
        worst = max(worst, s)
        print(f"{name:44s} {str(status):>8s} {s * 1000:8.0f} {len(text):10d}  {text[:100]!r}")
    time.sleep(2)  # a few more of the other tenant's chats under the grammar load and the idle uploads
    others.stop = True
    stop.set()
    others.join()
    for t in loaders:
        t.join()
    for s in socks:
        s.close()
    under = statistics.median(others.latencies) if others.latencies else float("inf")
    print(f"other tenant meanwhile: {len(others.latencies)} chats answered 200, p50 {under * 1000:.0f} ms, "
          f"max {max(others.latencies, default=0) * 1000:.0f} ms; failed: {others.failures[:3]}")

    if os.environ.get("BENCH_HOSTILE_KILL_DB", "1") != "0":
        answers, recovered = kill_database()
        statuses = sorted({str(a[0]) for a in answers})
        slowest = max(a[1] for a in answers)
        worst = max(worst, slowest)
        print(f"kill -9 of the embedded PostgreSQL: {len(answers)} writes, statuses {statuses}, Retry-After "
              f"{sorted({a[2] for a in answers if a[2]})}, slowest answer {slowest * 1000:.0f} ms, writes succeed "
              f"again after {'never (60 s)' if recovered is None else f'{recovered:.1f} s'}")
    rss.stop = True
    rss.join()
    peak = max(rss.samples) - idle_rss
    print(f"load average at end: {' '.join(load())}")
    print(f"hostile: worst_ms={worst * 1000:.0f} worst_rss_mb={peak:.0f} others_p50_slowdown={under / idle:.2f}")


if __name__ == "__main__":
    main()

"""Big-body benchmark driver (bench/bodies runs it): posts ART-shaped trajectory bodies to a running Crucible while
polling /v1/health every 100 ms, and prints time to answer, health latency and the server's peak resident memory."""
import http.client, json, os, sys, threading, time, uuid

port, key, pid, workdir = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
sizes = [int(s) for s in os.environ.get("BENCH_BODIES_MB", "128,250").split(",") if s]
parallel = int(os.environ.get("BENCH_BODIES_PARALLEL", "6"))


def body_file(mb):
    """An RL job body of about mb MB: trajectory groups whose choices carry per-token logprobs, as ART sends."""
    path = os.path.join(workdir, f"body-{mb}mb.json")
    if os.path.exists(path) and os.path.getsize(path) >= mb * 1_000_000:
        return path
    token = {"token": "token_id:1234", "logprob": -0.6931, "bytes": [104, 105], "top_logprobs": []}
    choice = {"finish_reason": "stop", "index": 0,
              "message": {"role": "assistant", "content": "hi " * 200},
              "logprobs": {"content": [token] * 512}}
    traj = {"messages_and_choices": [{"role": "user", "content": "say hi " * 50}, choice], "reward": 0.5,
            "metrics": {}}
    group = json.dumps({"trajectories": [traj] * 8})
    with open(path + ".tmp", "w") as f:
        f.write('{"model_id": "%s", "trajectory_groups": [' % uuid.uuid4())
        written, first = 0, True
        while written < mb * 1_000_000:
            if not first:
                f.write(",")
            f.write(group)
            written += len(group) + 1
            first = False
        f.write("]}")
    os.rename(path + ".tmp", path)
    return path


class Health(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.latencies, self.failures, self.stop = [], 0, False

    def run(self):
        while not self.stop:
            t = time.monotonic()
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                c.request("GET", "/v1/health")
                c.getresponse().read()
                c.close()
                self.latencies.append(time.monotonic() - t)
            except Exception:
                self.failures += 1
                self.latencies.append(time.monotonic() - t)
            time.sleep(max(0.0, 0.1 - (time.monotonic() - t)))


def post(path, out, i):
    size = os.path.getsize(path)
    t = time.monotonic()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=900)
        c.putrequest("POST", "/v1/preview/training-jobs")
        c.putheader("Authorization", "Bearer " + key)
        c.putheader("Content-Type", "application/json")
        c.putheader("Content-Length", str(size))
        c.endheaders()
        with open(path, "rb") as f:
            while chunk := f.read(1 << 20):
                c.send(chunk)
        r = c.getresponse()
        text = r.read().decode(errors="replace")
        out[i] = (r.status, time.monotonic() - t, text[:160])
    except Exception as e:  # a server that closes the connection early after refusing still counts as answered
        out[i] = ("error: " + type(e).__name__, time.monotonic() - t, str(e)[:160])


def rss_peak_kb():
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def reset_peak():
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def run(label, path, n):
    reset_peak()
    health = Health()
    health.start()
    time.sleep(0.5)
    load = open("/proc/loadavg").read().split()[:3]
    out = [None] * n
    t = time.monotonic()
    threads = [threading.Thread(target=post, args=(path, out, i)) for i in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wall = time.monotonic() - t
    time.sleep(0.5)
    health.stop = True
    health.join()
    lat = sorted(health.latencies)
    print(f"{label}: {n} x {os.path.getsize(path) / 1e6:.0f} MB, all answered in {wall:.1f} s; "
          f"load avg before {' '.join(load)}")
    for status, secs, text in out:
        print(f"    answer {status} after {secs:.1f} s: {text}")
    print(f"    /v1/health polled {len(lat)} times every 100 ms: max {lat[-1] * 1000:.0f} ms, "
          f"median {lat[len(lat) // 2] * 1000:.0f} ms, failures {health.failures}")
    print(f"    server peak resident memory {rss_peak_kb() / 1e6:.2f} GB")


for mb in sizes:
    run(f"one body of {mb} MB", body_file(mb), 1)
if parallel > 1:
    run(f"{parallel} bodies of 250 MB in parallel", body_file(250), parallel)
print(f"load avg at the end {open('/proc/loadavg').read().strip()}")

package dev.crucible.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.hf.HfJson;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code bench/serve}'s stall round, the client side: {@code streams} streams decode until each has
 * {@value #SETTLED} tokens, then one long prompt ({@code repeats} times the bench prompt, about 50 tokens each, after
 * a nonce that keeps it out of the prefix cache) arrives, asking for one token; the streams go on until each has had
 * {@value #AFTER} more tokens after the long prompt's first (or two minutes have passed), then are closed (the server
 * aborts them); a token is any chunk with a choice, text or not. Reports the streams' idle inter-token latency (the
 * median gap before the long prompt was sent, their first {@value #SKIPPED} gaps left out) and their worst gap then
 * (how far the machine alone spreads a step; the {@value #SETTLED} tokens before the prompt are about as many steps as
 * its prefill takes beside them, so that this floor is read over as long a stretch as the stall), their worst gap
 * overlapping the long prompt's prefill, the ratio of the two ({@code stall}), and the long prompt's time to first
 * token with the streams running and alone (sent first, with nothing running), which is what pacing the prefill costs
 * it. Each of the eight worst gaps comes with when it began, in milliseconds after the long prompt was sent
 * ({@code gaps_during_start_ms}), so a gap that stands out can be told from the steady pieces by where in the prefill
 * it fell. This client first runs its own way against a stub ({@link ServeClient#warmOwnPath}), and reports the CPU
 * time it spent from the streams' start to their end ({@code client_cpu_ms}).
 */
final class ServeStall {

    static final int SETTLED = 200;
    static final int AFTER = 4;
    static final int SKIPPED = 2;
    /** The longest wait for the streams' tokens after the long prompt's first, however slow the machine. */
    private static final long AFTER_LIMIT_NANOS = 120_000_000_000L;
    /** Each stream's max_tokens: more than it decodes before it is closed. */
    private static final int STREAM_TOKENS = 4000;

    private ServeStall() {
    }

    /** The long prompt: a nonce, then the bench prompt {@code repeats} times. */
    static String longPrompt(String nonce, int repeats) {
        return nonce + ": " + (ServeClient.PROMPT + " ").repeat(repeats);
    }

    static ObjectNode run(ServeClient client, int streams, int repeats) throws Exception {
        client.warmOwnPath();
        long nonce = System.nanoTime();
        long aloneSent = System.nanoTime();
        List<Long> aloneTimes = new ArrayList<>();
        JsonNode aloneUsage = client.stream(longPrompt("alone " + nonce, repeats), 1, true, aloneTimes::add);
        double ttftAlone = (aloneTimes.getFirst() - aloneSent) / 1e6;

        List<List<Long>> times = new ArrayList<>();
        for (int s = 0; s < streams; s++) {
            times.add(new CopyOnWriteArrayList<>());
        }
        AtomicBoolean stop = new AtomicBoolean();
        long[] firstLong = {0};
        long sent;
        JsonNode longUsage;
        long cpu = ServeClient.cpuNanos();
        try (ExecutorService pool = ServeClient.streamThreads()) {
            List<Future<JsonNode>> running = new ArrayList<>();
            for (int s = 0; s < streams; s++) {
                List<Long> mine = times.get(s);
                running.add(pool.submit(() -> client.stream(ServeClient.PROMPT, STREAM_TOKENS, true, now -> {
                    mine.add(now);
                    return !stop.get();
                })));
            }
            while (times.stream().anyMatch(t -> t.size() < SETTLED)) {
                Thread.sleep(5);
                for (Future<JsonNode> f : running) {
                    if (f.isDone()) {
                        f.get(); // a stream that ended early failed: say why
                        throw new IllegalStateException("a stream ended before the long prompt was sent");
                    }
                }
            }
            sent = System.nanoTime();
            longUsage = client.stream(longPrompt("stall " + nonce, repeats), 1, true, now -> {
                firstLong[0] = now;
                return true;
            });
            long deadline = System.nanoTime() + AFTER_LIMIT_NANOS;
            while (times.stream().anyMatch(t -> t.stream().filter(x -> x > firstLong[0]).count() < AFTER)
                    && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            stop.set(true);
            for (Future<JsonNode> f : running) {
                f.get();
            }
        }
        double clientCpuMs = (ServeClient.cpuNanos() - cpu) / 1e6;
        List<Double> idle = new ArrayList<>();
        List<double[]> during = new ArrayList<>();
        for (List<Long> t : times) {
            for (int i = 1; i < t.size(); i++) {
                double gap = (t.get(i) - t.get(i - 1)) / 1e6;
                if (t.get(i) < sent && i > SKIPPED) {
                    idle.add(gap);
                } else if (t.get(i) > sent && t.get(i - 1) < firstLong[0]) {
                    during.add(new double[] {gap, (t.get(i - 1) - sent) / 1e6});
                }
            }
        }
        idle.sort(Double::compare);
        during.sort((a, b) -> Double.compare(b[0], a[0]));
        double idleItl = idle.get(idle.size() / 2);
        ObjectNode out = HfJson.object();
        out.put("streams", streams);
        out.put("long_prompt_tokens", longUsage.path("prompt_tokens").asInt());
        out.put("long_prompt_tokens_alone", aloneUsage.path("prompt_tokens").asInt());
        out.put("idle_itl_ms", idleItl);
        out.put("idle_worst_gap_ms", idle.getLast());
        out.put("idle_gaps", idle.size());
        out.put("worst_gap_ms", during.getFirst()[0]);
        out.put("stall", during.getFirst()[0] / idleItl);
        out.put("ttft_alone_ms", ttftAlone);
        out.put("ttft_stall_ms", (firstLong[0] - sent) / 1e6);
        var worst = out.putArray("gaps_during_ms");
        var starts = out.putArray("gaps_during_start_ms");
        during.stream().limit(8).forEach(g -> {
            worst.add(g[0]);
            starts.add(g[1]);
        });
        out.put("gaps_during", during.size());
        out.put("client_cpu_ms", clientCpuMs);
        return out;
    }
}

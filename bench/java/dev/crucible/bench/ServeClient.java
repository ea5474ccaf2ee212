package dev.crucible.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.hf.HfJson;
import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The client side of {@code bench/serve}: {@code streams} streaming chat completions sent to the server at once, each
 * a fixed prompt, {@code tokens} tokens greedy with {@code ignore_eos} (so every stream decodes all of them), timed
 * as a user sees them: time to first token is from sending to the first token's chunk, inter-token latency the gaps
 * between chunks (the server sends one per token, with text or not), and the aggregate rate all completion tokens
 * (from each stream's usage) over the wall time from the first send to the last stream's end. One untimed warm-up
 * round of as many streams comes first, as on the llama.cpp side (serve.mjs): the server's first burst at a new
 * concurrency grows its caches and compiles its paths. The client runs on the server's cores, so it is kept lean:
 * each stream reads its own socket on a platform thread ({@link SseExchange}), this JVM runs its own way against a
 * stub before anything is timed ({@link #warmOwnPath}), and each timed round records the CPU time this client spent
 * in it ({@code client_cpu_ms}).
 */
final class ServeClient {

    /** About 32 tokens, as bench/run's prompt; 69 once the bench model's chat template adds its system prompt. */
    static final String PROMPT = "The quick brown fox jumps over the lazy dog while the committee reviews the "
            + "quarterly report in the lab.";

    private static final int WARM_UP_ROUNDS = 40;
    private static final int WARM_UP_CHUNKS = 300;

    private final URI uri;
    private final String key;
    private final String model;

    ServeClient(String baseUrl, String key, String model) {
        this.uri = URI.create(baseUrl + "/v1/chat/completions");
        this.key = key;
        this.model = model;
    }

    /** One stream's timings. */
    /** @param tokenMs the server's time per token: from the first content chunk to the last over the tokens between */
    private record Stream(double ttftMs, List<Double> gapsMs, double tokenMs, int promptTokens, int completionTokens) {
    }

    /** {@code rounds} rounds of {@code streams} concurrent streams; the JSON has per-round figures. */
    ObjectNode run(int streams, int tokens, int rounds) throws Exception {
        warmOwnPath();
        try (ExecutorService warmUp = streamThreads()) {
            List<Future<Stream>> sent = new ArrayList<>();
            for (int s = 0; s < streams; s++) {
                sent.add(warmUp.submit(() -> one(tokens)));
            }
            for (Future<Stream> f : sent) {
                f.get();
            }
        }
        ObjectNode out = HfJson.object();
        out.put("streams", streams);
        ArrayNode aggregate = out.putArray("aggregate_tps");
        ArrayNode ttft = out.putArray("ttft_ms");
        ArrayNode itl = out.putArray("itl_ms");
        ArrayNode perToken = out.putArray("token_ms");
        ArrayNode clientCpu = out.putArray("client_cpu_ms");
        try (ExecutorService pool = streamThreads()) {
            for (int r = 0; r < rounds; r++) {
                long cpu = cpuNanos();
                long start = System.nanoTime();
                List<Future<Stream>> sent = new ArrayList<>();
                for (int s = 0; s < streams; s++) {
                    sent.add(pool.submit(() -> one(tokens)));
                }
                int completion = 0;
                for (Future<Stream> f : sent) {
                    Stream done = f.get();
                    completion += done.completionTokens();
                    ttft.add(done.ttftMs());
                    done.gapsMs().forEach(itl::add);
                    perToken.add(done.tokenMs());
                    out.put("prompt_tokens", done.promptTokens());
                }
                aggregate.add(completion / ((System.nanoTime() - start) / 1e9));
                clientCpu.add((cpuNanos() - cpu) / 1e6);
            }
        }
        return out;
    }

    /**
     * {@code requests} single streams one after another, as the first requests a freshly started server gets: per
     * request its time to first token, its decode rate (tokens after the first chunk's over the time since it, counted
     * from the chunks' usage, since a random model's tokens often decode to no text), the prompt tokens the server had
     * cached (0) and this client's CPU time over the request. Each request has its own {@code cache_salt}, so none is
     * served from the prefix cache: with the same prompt every time, only the first request prefilled it whole (69
     * tokens against 5), which is what made the first time to first token look six times the others'.
     */
    ObjectNode firstRequests(int requests, int tokens) throws Exception {
        ObjectNode out = HfJson.object();
        ArrayNode ttft = out.putArray("ttft_ms");
        ArrayNode decode = out.putArray("decode_tps");
        ArrayNode cached = out.putArray("cached_tokens");
        ArrayNode clientCpu = out.putArray("client_cpu_ms");
        long nonce = System.nanoTime() % 1_000_000;
        warmOwnPath();
        for (int r = 0; r < requests; r++) {
            long cpu = cpuNanos();
            long sent = System.nanoTime();
            List<Long> times = new ArrayList<>();
            List<Integer> reached = new ArrayList<>();
            JsonNode usage = countedStream(PROMPT, "first-" + nonce + "-" + r, tokens, true, (now, completion) -> {
                times.add(now);
                reached.add(completion);
                return true;
            });
            clientCpu.add((cpuNanos() - cpu) / 1e6);
            ttft.add((times.getFirst() - sent) / 1e6);
            decode.add((reached.getLast() - reached.getFirst()) / ((times.getLast() - times.getFirst()) / 1e9));
            cached.add(usage == null ? -1 : usage.path("prompt_tokens_details").path("cached_tokens").asInt());
        }
        return out;
    }

    /**
     * A platform thread per stream: each reads its socket with blocking reads, where a virtual thread would park at
     * every chunk and be woken by the poller thread on another carrier, two more hand-offs a token on the server's
     * cores.
     */
    static ExecutorService streamThreads() {
        return Executors.newThreadPerTaskExecutor(Thread.ofPlatform().daemon().name("stream-", 0).factory());
    }

    /** This JVM's CPU time so far, all its threads. */
    static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /**
     * Runs this client's own way, building a body, the HTTP exchange on a new connection, reading and parsing SSE
     * chunks with usage in each, against a stub in this JVM that answers {@value #WARM_UP_ROUNDS} canned streams of
     * {@value #WARM_UP_CHUNKS} chunks, so that what is timed is the server and not this fresh JVM's first HTTP exchange,
     * JSON and the compiling of both (measured: about 130 ms before the first request left and 240 ms parsing its
     * first chunk at load 7; and a fresh client's 64-token stream took 1.7 s of CPU on a 2-core machine, beside the
     * server's two engine threads). The server sees none of it.
     */
    void warmOwnPath() throws Exception {
        StringBuilder canned = new StringBuilder(
                "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n");
        for (int i = 1; i <= WARM_UP_CHUNKS; i++) {
            canned.append("data: {\"id\":\"chatcmpl-warm\",\"object\":\"chat.completion.chunk\",\"choices\":[{")
                    .append("\"index\":0,\"delta\":{\"content\":\"").append(i % 3 == 0 ? "" : " a")
                    .append("\"},\"logprobs\":null,\"finish_reason\":null}],\"usage\":{\"prompt_tokens\":69,")
                    .append("\"completion_tokens\":").append(i).append(",\"total_tokens\":").append(69 + i)
                    .append("}}\n\n");
        }
        canned.append("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":69,\"completion_tokens\":")
                .append(WARM_UP_CHUNKS).append(",\"prompt_tokens_details\":{\"cached_tokens\":0}}}\n\n")
                .append("data: [DONE]\n\n");
        byte[] sse = canned.toString().getBytes(StandardCharsets.UTF_8);
        HttpServer stub = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        stub.createContext("/v1/chat/completions", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(sse);
            }
        });
        stub.start();
        try {
            URI at = URI.create("http://127.0.0.1:" + stub.getAddress().getPort() + "/v1/chat/completions");
            for (int r = 0; r < WARM_UP_ROUNDS; r++) {
                stream(at, PROMPT, "warm-up-" + r, WARM_UP_CHUNKS, r % 2 == 0, null, (now, completion) -> true);
            }
        } finally {
            stub.stop(0);
        }
    }

    /**
     * One stream, timed at each token's chunk (a random model's tokens often decode to no text, a special token
     * skipped or part of a character, so gaps between content chunks would span several tokens), with
     * {@code continuous_usage_stats} so that each chunk says how many tokens it has reached, which the time per token
     * counts.
     */
    private Stream one(int tokens) throws Exception {
        long sent = System.nanoTime();
        List<Long> times = new ArrayList<>();
        List<Integer> reached = new ArrayList<>();
        JsonNode usage = countedStream(PROMPT, null, tokens, true, (now, completion) -> {
            times.add(now);
            reached.add(completion);
            return true;
        });
        if (usage == null) {
            throw new IllegalStateException("the stream ended without usage");
        }
        List<Double> gaps = new ArrayList<>();
        for (int i = 1; i < times.size(); i++) {
            gaps.add((times.get(i) - times.get(i - 1)) / 1e6);
        }
        double ttft = times.isEmpty() ? -1 : (times.getFirst() - sent) / 1e6;
        int spanned = times.isEmpty() ? 0 : reached.getLast() - reached.getFirst();
        double tokenMs = spanned < 1 ? -1 : (times.getLast() - times.getFirst()) / 1e6 / spanned;
        return new Stream(ttft, gaps, tokenMs, usage.path("prompt_tokens").asInt(),
                usage.path("completion_tokens").asInt());
    }

    /** Hears the {@link System#nanoTime()} of each content chunk of a stream; false ends the stream there. */
    @FunctionalInterface
    interface Tokens {
        boolean arrived(long nanos);
    }

    /** Hears each content chunk's arrival and the completion tokens the stream has reached with it. */
    @FunctionalInterface
    interface CountedTokens {
        boolean arrived(long nanos, int completionTokens);
    }

    /**
     * Streams a greedy completion of {@code tokens} tokens ({@code ignore_eos}) for one user message, telling
     * {@code heard} of each content chunk as it arrives, or of each token's chunk when {@code everyToken} (a random
     * model's tokens often decode to no text, a special token skipped, and a stream of them would look stalled; the
     * opening chunk that names the role carries no token, and comes with the first);
     * returns the usage, or null when the listener ended the stream first (which closes the connection, so the server
     * aborts the request).
     */
    JsonNode stream(String content, int tokens, boolean everyToken, Tokens heard) throws Exception {
        return stream(content, null, tokens, everyToken, heard);
    }

    /** As {@link #stream(String, int, boolean, Tokens)}, in the prefix-cache scope of {@code cacheSalt} unless null. */
    JsonNode stream(String content, String cacheSalt, int tokens, boolean everyToken, Tokens heard) throws Exception {
        return stream(content, cacheSalt, tokens, everyToken, heard, null);
    }

    /**
     * As {@link #stream(String, String, int, boolean, Tokens)}, telling {@code counted} instead of {@code heard}, with
     * each chunk's completion tokens so far ({@code continuous_usage_stats}), unless it is null.
     */
    JsonNode countedStream(String content, String cacheSalt, int tokens, boolean everyToken, CountedTokens counted)
            throws Exception {
        return stream(content, cacheSalt, tokens, everyToken, null, counted);
    }

    private JsonNode stream(String content, String cacheSalt, int tokens, boolean everyToken, Tokens heard,
            CountedTokens counted) throws Exception {
        return stream(uri, content, cacheSalt, tokens, everyToken, heard, counted);
    }

    private JsonNode stream(URI to, String content, String cacheSalt, int tokens, boolean everyToken, Tokens heard,
            CountedTokens counted) throws Exception {
        ObjectNode body = HfJson.object();
        if (cacheSalt != null) {
            body.put("cache_salt", cacheSalt);
        }
        body.put("model", model);
        body.putArray("messages").addObject().put("role", "user").put("content", content);
        body.put("max_tokens", tokens);
        body.put("temperature", 0);
        body.put("ignore_eos", true);
        body.put("stream", true);
        ObjectNode options = body.putObject("stream_options").put("include_usage", true);
        if (counted != null) {
            options.put("continuous_usage_stats", true);
        }
        JsonNode[] usage = {null};
        boolean[] stopped = {false};
        try (SseExchange exchange = SseExchange.post(to, key,
                HfJson.compact(body).getBytes(StandardCharsets.UTF_8))) {
            if (exchange.status() != 200) {
                throw new IllegalStateException("the server answered " + exchange.status() + ": " + exchange.rest());
            }
            exchange.read(line -> {
                long now = System.nanoTime();
                if (!line.startsWith("data: ") || line.equals("data: [DONE]")) {
                    return true;
                }
                JsonNode chunk = HfJson.parse(line.substring(6), "chunk");
                if (chunk.hasNonNull("usage")) {
                    usage[0] = chunk.get("usage");
                }
                JsonNode choices = chunk.path("choices");
                JsonNode delta = choices.path(0).path("delta");
                if (!choices.isEmpty() && (everyToken ? !delta.has("role")
                        : !delta.path("content").asText("").isEmpty())) {
                    boolean more = counted == null ? heard.arrived(now)
                            : counted.arrived(now, chunk.path("usage").path("completion_tokens").asInt());
                    stopped[0] = !more;
                    return more;
                }
                return true;
            });
        }
        return stopped[0] ? null : usage[0];
    }
}

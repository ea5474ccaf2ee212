package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.runtime.generation.GeneratorSnapshot;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Prefix caching over HTTP on the tiny model: {@code usage.prompt_tokens_details.cached_tokens} counts the reused
 * prompt tokens in whole 16-token blocks, only within one entity and {@code cache_salt}, the {@code n} choices of
 * one request cost one prefill, and so do identical requests sent together. Assertions depend on token counts, never
 * on the model's words. Runs on the server's default engine; {@link PrefixCachingOnnxIT} runs it on ONNX.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PrefixCachingIT {

    private static final int BLOCK = 16;
    private static final ObjectMapper JSON = new ObjectMapper();

    @AutoClose
    private final TestServer server = TestServer.start(properties());
    private final String aliceKey = server.newKey("alice");
    private final Api alice = server.api(aliceKey);
    private final Api bob = server.api(server.newKey("bob"));
    /** This test's system prompt, before every question it asks. */
    private String system;

    /** The server's settings beyond the test defaults. */
    Map<String, Object> properties() {
        return Map.of();
    }

    /** A system prompt of a few hundred tokens, unique to one test so no other test's requests were cached. */
    private static String systemPrompt() {
        StringBuilder text = new StringBuilder(UUID.randomUUID().toString()).append(' ');
        for (int i = 0; i < 40; i++) {
            text.append("Rule ").append(i).append(": answer briefly and politely. ");
        }
        return text.toString();
    }

    /** A fresh system prompt for each test, so that no other test's requests were cached. */
    @BeforeEach
    void newSystemPrompt() {
        system = systemPrompt();
    }

    /** A chat completion body of {@code question} after this test's system prompt, with the fields {@code pairs}. */
    private Map<String, Object> chat(String question, Object... pairs) {
        Map<String, Object> body = new HashMap<>(RequestBodies.chat(question, "max_tokens", 4, "temperature", 0));
        body.put("messages", List.of(Map.of("role", "system", "content", system),
                Map.of("role", "user", "content", question)));
        return RequestBodies.with(body, pairs);
    }

    /** {@code who}'s chat completion of {@code question}, with the extra fields {@code pairs}. */
    private Api.Reply ask(Api who, String question, Object... pairs) {
        return who.post("/v1/chat/completions", chat(question, pairs));
    }

    /** Alice's answer to {@code question} under a fresh {@code cache_salt}: another scope, so nothing is reused. */
    private Api.Reply askAlone(String question) {
        return ask(alice, question, "cache_salt", UUID.randomUUID().toString());
    }

    private static Map<?, ?> usage(Api.Reply reply) {
        assertEquals(200, reply.status(), reply.toString());
        return (Map<?, ?>) reply.json().get("usage");
    }

    private static int promptTokens(Api.Reply reply) {
        return ((Number) usage(reply).get("prompt_tokens")).intValue();
    }

    private static int cached(Api.Reply reply) {
        return ((Number) ((Map<?, ?>) usage(reply).get("prompt_tokens_details")).get("cached_tokens")).intValue();
    }

    /** Alice's chat completions of {@code bodies}, each sent on a thread of its own at once; replies in order. */
    private List<Api.Reply> sentTogether(List<Map<String, Object>> bodies) {
        try (ExecutorService clients = Executors.newFixedThreadPool(bodies.size())) {
            List<CompletableFuture<Api.Reply>> sent = bodies.stream().map(body -> CompletableFuture
                    .supplyAsync(() -> alice.post("/v1/chat/completions", body), clients)).toList();
            return sent.stream().map(CompletableFuture::join).toList();
        }
    }

    private GeneratorSnapshot snapshot() {
        return server.bean(ServedModels.class).find(TestServer.BASE_MODEL).orElseThrow().generator().snapshot();
    }

    @Test
    void aRepeatedPromptReusesItsWholeBlocksAndAnswersTheSame() {
        Api.Reply first = ask(alice, "What is 2+2?");
        Api.Reply second = ask(alice, "What is 2+2?");
        int prompt = promptTokens(first);
        assertTrue(prompt > 4 * BLOCK, "a prompt of several blocks, got " + prompt);
        assertEquals(0, cached(first));
        assertEquals((prompt - 1) / BLOCK * BLOCK, cached(second), "every whole block but the last token's");
        assertEquals(first.firstChoice().get("message"), second.firstChoice().get("message"),
                "greedy output with the cache equals the output without it");
    }

    @Test
    void aSharedSystemPromptIsReusedUpToTheQuestion() {
        Api.Reply first = ask(alice, "Name a colour.");
        Api.Reply other = ask(alice, "Name a fruit, please.");
        int reused = cached(other);
        assertEquals(0, cached(first));
        assertTrue(reused > 0 && reused % BLOCK == 0 && reused < promptTokens(other), "cached " + reused);
    }

    @Test
    void anotherCacheSaltReusesNothing() {
        ask(alice, "Hi", "cache_salt", "salt-a");
        assertEquals(0, cached(ask(alice, "Hi", "cache_salt", "salt-b")));
        assertEquals(0, cached(ask(alice, "Hi")), "no salt is another scope");
        assertTrue(cached(ask(alice, "Hi", "cache_salt", "salt-a")) > 0);
    }

    @Test
    void anotherEntityReusesNothing() {
        ask(alice, "Hi");
        assertTrue(cached(ask(alice, "Hi")) > 0);
        assertEquals(0, cached(ask(bob, "Hi")),
                "one tenant never reuses, nor can time, another's prompt");
        assertTrue(cached(ask(bob, "Hi")) > 0, "bob's own repeat is reused");
    }

    @Test
    void theNChoicesOfOneRequestCostOnePrefill() {
        long before = snapshot().prefillTokens();
        Api.Reply reply = ask(alice, "Hi", "n", 4, "temperature", 1.0, "seed", 7);
        assertEquals(4, ((List<?>) reply.json().get("choices")).size());
        assertEquals(0, cached(reply));
        assertEquals(promptTokens(reply), snapshot().prefillTokens() - before, "one prefill, not four");
    }

    @Test
    void identicalRequestsSentTogetherPrefillOnceAndAnswerAsIfAlone() {
        List<Api.Reply> together = sentTogether(Collections.nCopies(6, chat("What is 2+2?")));
        // another cache_salt is another scope, so this one restores nothing and prefills on its own
        Api.Reply alone = askAlone("What is 2+2?");
        assertEquals(0, cached(alone));
        int prompt = promptTokens(alone);
        int whole = (prompt - 1) / BLOCK * BLOCK;
        List<Integer> cached = together.stream().map(PrefixCachingIT::cached).toList();
        assertEquals(1, cached.stream().filter(c -> c == 0).count(), "one prefills, the others reuse it: " + cached);
        // one admitted while the first still runs takes its whole prompt; one admitted after restores the whole blocks
        assertTrue(cached.stream().allMatch(c -> c == 0 || c == prompt || c == whole), "the whole prompt or every "
                + "whole block but the last token's: " + cached);
        together.forEach(reply -> assertEquals(alone.firstChoice().get("message"), reply.firstChoice().get("message"),
                "greedy output with a shared prefill equals the output without it"));
    }

    @Test
    void requestsSentTogetherWithASharedSystemPromptPrefillItOnce() {
        List<String> questions = List.of("Name a colour.", "Name a fruit, please.", "Name a tree.", "Name a river.");
        List<Api.Reply> together = sentTogether(questions.stream().map(q -> chat(q)).toList());
        List<Integer> cached = together.stream().map(PrefixCachingIT::cached).toList();
        assertEquals(1, cached.stream().filter(c -> c == 0).count(), "one prefills the system prompt: " + cached);
        assertTrue(cached.stream().allMatch(c -> c % BLOCK == 0 && c < promptTokens(together.getFirst())), "" + cached);
        for (int i = 0; i < questions.size(); i++) {
            Api.Reply alone = askAlone(questions.get(i));
            assertEquals(alone.firstChoice().get("message"), together.get(i).firstChoice().get("message"));
        }
    }

    @Test
    void aStreamsFinalUsageCountsTheCachedTokens() throws IOException {
        int expected = (promptTokens(ask(alice, "Hi")) - 1) / BLOCK * BLOCK;
        Api.Events events = alice.stream("/v1/chat/completions", chat("Hi", "stream", true,
                "stream_options", Map.of("include_usage", true)));
        assertEquals(200, events.status(), events.body());
        List<String> data = events.data();
        Map<?, ?> last = JSON.readValue(data.get(data.size() - 2).substring("data: ".length()), Map.class);
        Map<?, ?> details = (Map<?, ?>) ((Map<?, ?>) last.get("usage")).get("prompt_tokens_details");
        assertEquals(expected, ((Number) details.get("cached_tokens")).intValue());
    }

    @Test
    void theCacheIsShownInTheMetrics() throws IOException, InterruptedException {
        ask(alice, "Hi");
        ask(alice, "Hi");
        assertTrue(snapshot().prefixCache().hitTokens() > 0);
        assertTrue(snapshot().prefixCache().heldTokens() > 0);
        String text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.url() + "/metrics"))
                .header("Authorization", "Bearer " + aliceKey).GET().build(), HttpResponse.BodyHandlers.ofString())
                .body();
        for (String name : List.of("vllm:prefix_cache_queries_total", "vllm:prefix_cache_hits_total",
                "crucible_prefix_cache_tokens", "crucible_prefix_cache_evictions_total", "crucible_prefill_tokens_total")) {
            assertTrue(text.contains(name + "{"), name + " in " + text.lines().filter(l -> l.contains("prefix"))
                    .toList());
        }
    }
}

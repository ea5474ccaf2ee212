package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A request's {@code chat_template} through HTTP, as a hostile tenant sends it: it reaches no Java, every string and
 * list it makes is bounded by a setting, a render past its time is stopped (nothing of it runs on after the 400), and
 * a long template compiles within the same time bound. The server's bounds are set small so each case is quick.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RequestTemplateSandboxIT {

    private static final String MAX_CHARS = "crucible.inference.request-chat-template-max-chars";
    private static final String MAX_ITEMS = "crucible.inference.request-chat-template-max-items";

    @AutoClose
    private final TestServer server = TestServer.start(Map.of(
            "crucible.inference.request-chat-template-timeout", "1s",
            MAX_CHARS, 200_000,
            MAX_ITEMS, 5_000));
    private final Api api = server.api(server.newKey("mallory"));

    private Api.Reply chat(String template) {
        return api.post("/v1/chat/completions", RequestBodies.chat("Hello there", "max_tokens", 1,
                "chat_template", template));
    }

    private static void assertRefused(Api.Reply reply, String param, String... mentions) {
        reply.assertRefused(400, param, mentions);
    }

    @Test
    void aRequestTemplateReachesNoJava() {
        assertRefused(chat("{{ 'ab'.repeat(3) }}"), "chat_template", "'repeat' on a str");
        assertRefused(chat("{{ messages.size() }}"), "chat_template", "'size' on a list");
        assertRefused(chat("{{ messages[0].content.matches('(a*)*b') }}"), "chat_template", "'matches' on a str");
        assertRefused(chat("{{ messages.append(messages[0]) }}"), "chat_template", "'append' on a list");
        Api.Reply regex = chat("{{ messages[0].content|regex_replace('(a*)*b', 'x') }}");
        assertEquals(400, regex.status(), "a Jinjava-only filter is refused: " + regex);
        Api.Reply python = chat("{{ messages[0].content.upper().split(' ')|join('-') }}{{ 'x'.join(['a', 'b']) }}"
                + "{{ messages|length }}{{ {'a': 1}.items()|list }}");
        assertEquals(200, python.status(), "what jinja2's sandbox offers still works: " + python);
    }

    @Test
    void everyStringAndListItMakesIsBoundedNamingItsSetting() {
        assertRefused(chat("{% for i in range(10**9) %}{% endfor %}"), "messages", "5000 items", MAX_ITEMS);
        assertRefused(chat("{{ range(6000)|length }}"), "messages", "5000 items", MAX_ITEMS);
        assertRefused(chat("{% set s = 'xxxxxxxxxx' %}{% for i in range(40) %}{% set s = s ~ s %}{% endfor %}"),
                "messages", "200000 characters", MAX_CHARS);
        assertRefused(chat("{{ 'x'|center(10**9) }}"), "messages", "200000 characters", MAX_CHARS);
        assertRefused(chat("{% set x = range(5000)|join(',') %}{{ x.replace(',', x)|length }}"), "messages",
                "200000 characters", MAX_CHARS);
        assertRefused(chat("{{ range(5000)|map('string')|map('center', 100)|join|length }}"), "messages",
                "200000 characters", MAX_CHARS);
        assertEquals(200, chat("{{ range(5000)|join(',')|length }}").status(), "within the bounds it renders");
    }

    @Test
    void aRenderPastItsTimeIsStoppedNotLeftRunning() throws IOException, InterruptedException {
        long start = System.nanoTime();
        Api.Reply slow = chat("{% for a in range(999) %}{% for b in range(999) %}{% for c in range(999) %}"
                + "{% endfor %}{% endfor %}{% endfor %}");
        assertRefused(slow, "chat_template", "took longer than 1000 ms");
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(10).toNanos(), "answered in time");
        // the 10^9 iterations would run for minutes if only abandoned: no thread of the server may still be in one
        Thread.sleep(500);
        String threads = threadDump();
        assertFalse(threads.contains("com.hubspot.jinjava.lib.tag.ForTag"),
                "a thread still renders the refused template");
        assertEquals(200, api.post("/v1/chat/completions", RequestBodies.chat("Hello there", "max_tokens", 1))
                .status(), "the server serves on");
    }

    @Test
    void aLongRequestTemplateCompilesWithinTheTimeBound() throws IOException {
        // a shape whose compile grew with the cube of its length: 1,250 characters took 3.6 s, 20 KB hours
        StringBuilder hostile = new StringBuilder("{{ ");
        while (hostile.length() < 20_000) {
            hostile.append("not a[::-1] is b ");
        }
        long start = System.nanoTime();
        Api.Reply reply = chat(hostile.append("}}").toString());
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(reply.status() == 200 || reply.status() == 400, reply.toString());
        assertTrue(millis < 5_000, "answered in " + millis + " ms");
        // a realistic one: the tiny Qwen3 template and four more copies behind a false condition, 19 KB
        String qwen3 = resource("/dev/crucible/hf/tiny/qwen3.jinja");
        String realistic = qwen3 + ("{% if false %}" + qwen3 + "{% endif %}").repeat(4);
        assertTrue(realistic.length() > 19_000, "length " + realistic.length());
        start = System.nanoTime();
        Api.Reply rendered = chat(realistic);
        millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(200, rendered.status(), rendered.toString());
        assertTrue(millis < 5_000, "answered in " + millis + " ms");
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = RequestTemplateSandboxIT.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Every thread of this JVM, virtual ones included, as the JDK's thread dump lists them. */
    private static String threadDump() {
        try {
            Path file = Files.createTempDirectory("threads").resolve("dump.json");
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).dumpThreads(file.toString(),
                    HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
            String dump = Files.readString(file);
            Files.delete(file);
            Files.delete(file.getParent());
            return dump;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

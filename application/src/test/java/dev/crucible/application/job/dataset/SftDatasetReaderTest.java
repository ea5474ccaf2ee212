package dev.crucible.application.job.dataset;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertInvalid;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.domain.job.SftExample;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.testsupport.outcome.OutcomeAssertions;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class SftDatasetReaderTest {

    private static final String GOOD = "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}, "
            + "{\"role\": \"assistant\", \"content\": \"hello\"}]}";
    private static final SftDatasetLimits LIMITS = new SftDatasetLimits(5, 1_000_000);

    private static Outcome<List<SftExample>> read(String text) {
        return read(text.getBytes(StandardCharsets.UTF_8), LIMITS);
    }

    private static Outcome<List<SftExample>> read(byte[] data, SftDatasetLimits limits) {
        return SftDatasetReader.read(data, JacksonLines.PARSER, limits);
    }

    private static void assertRefused(String text, String message) {
        assertInvalid(read(text), "training_data_url", message);
    }

    @Test
    void readsEveryLineInOrderWithItsLineNumber() {
        List<SftExample> examples = value(read(GOOD + "\n" + GOOD.replace("hello", "hey") + "\n"));
        assertEquals(List.of(1, 2), examples.stream().map(SftExample::line).toList());
        assertEquals("hey", examples.get(1).messages().get(1).get("content"));
    }

    @Test
    void blankLinesAreSkippedButCounted() {
        assertLineNumbers(List.of(2, 5), "\n" + GOOD + "\n   \n\t\n" + GOOD + "\n\n");
    }

    @Test
    void aBadLineIsNamedByItsNumberCountingBlankLines() {
        assertRefused(GOOD + "\n\n{\"messages\": []}\n", "training data line 3: messages must be a non-empty list");
    }

    @Test
    void crLfLineEndingsAndAByteOrderMarkAreAccepted() {
        assertLineNumbers(List.of(1, 3), "\uFEFF" + GOOD + "\r\n\r\n" + GOOD + "\r\n");
    }

    @Test
    void theLastLineNeedsNoNewline() {
        assertEquals(2, value(read(GOOD + "\n" + GOOD)).size());
    }

    @Test
    void invalidJsonNamesTheLine() {
        String message = OutcomeAssertions.assertRefused(read(GOOD + "\n{\"messages\": [\n"),
                dev.crucible.kernel.refusal.Refusal.Reason.INVALID, "training_data_url");
        assertTrue(message.startsWith("training data line 2: not valid JSON: "), message);
    }

    @Test
    void twoDocumentsOnOneLineAreNotValidJson() {
        String message = OutcomeAssertions.refusal(read(GOOD + " " + GOOD)).message();
        assertTrue(message.startsWith("training data line 1: not valid JSON: "), message);
    }

    @Test
    void bytesThatAreNotUtf8NameTheLine() {
        byte[] good = (GOOD + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] data = new byte[good.length + 3];
        System.arraycopy(good, 0, data, 0, good.length);
        data[good.length] = '{';
        data[good.length + 1] = (byte) 0xC3;
        data[good.length + 2] = '}';
        assertInvalid(read(data, LIMITS), "training_data_url", "training data line 2: not valid UTF-8 text");
    }

    @Test
    void nonAsciiTextIsRead() {
        List<SftExample> examples = value(read(GOOD.replace("hello", "grüße 👋")));
        assertEquals("grüße 👋", examples.getFirst().messages().get(1).get("content"));
    }

    @Test
    void anEmptyDatasetIsRefused() {
        assertRefused("", "training data is empty: it has no non-blank lines");
        assertRefused("\n \n\r\n", "training data is empty: it has no non-blank lines");
    }

    @Test
    void moreExamplesThanTheLimitAreRefused() {
        SftDatasetLimits two = new SftDatasetLimits(2, 1_000_000);
        byte[] three = (GOOD + "\n\n" + GOOD + "\n" + GOOD + "\n").getBytes(StandardCharsets.UTF_8);
        assertInvalid(read(three, two), "training_data_url",
                "training data has more than 2 examples, the most one job may train on (line 4 is example 3)");
        assertEquals(2, value(read((GOOD + "\n" + GOOD + "\n\n").getBytes(StandardCharsets.UTF_8), two)).size());
    }

    @Test
    void limitsMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new SftDatasetLimits(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new SftDatasetLimits(1, 0));
        assertThrows(IllegalArgumentException.class, () -> new SftDatasetLimits(1, SftDatasetLimits.MAX_BYTES + 1));
        assertEquals(SftDatasetLimits.MAX_BYTES, new SftDatasetLimits(1, SftDatasetLimits.MAX_BYTES).maxBytes());
        assertEquals("training data is larger than 10 bytes, the most one job may read",
                new SftDatasetLimits(1, 10).tooLarge().message());
    }

    /** Asserts that {@code text} reads as examples from exactly these line numbers. */
    private static void assertLineNumbers(List<Integer> lines, String text) {
        assertEquals(lines, value(read(text)).stream().map(SftExample::line).toList());
    }
}

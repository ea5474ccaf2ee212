package dev.crucible.application.job.dataset;

import dev.crucible.domain.job.SftExample;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads a whole SFT dataset, JSON Lines in UTF-8, into its examples. Lines are split on {@code \n} (a trailing
 * {@code \r} is dropped, a leading byte-order mark too) and numbered from 1; blank lines are skipped but counted,
 * so that a refusal's line number is the one an editor shows. The first bad line refuses the whole dataset.
 */
public final class SftDatasetReader {

    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    private SftDatasetReader() {
    }

    /**
     * The examples of {@code data}, each non-blank line parsed with {@code parser} and checked by
     * {@link SftLineReader}; refused (reason INVALID, param {@code training_data_url}) at the first line that is
     * not UTF-8, not JSON or not an example, when there are no examples, or when there are more than
     * {@code limits} allow. The byte bound is the caller's to enforce while reading.
     */
    public static Outcome<List<SftExample>> read(byte[] data, JsonLineParser parser, SftDatasetLimits limits) {
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(parser, "parser");
        Objects.requireNonNull(limits, "limits");
        List<SftExample> examples = new ArrayList<>();
        int start = startsWithBom(data) ? BOM.length : 0;
        int line = 0;
        while (start < data.length) {
            int end = indexOf(data, (byte) '\n', start);
            line++;
            Outcome<Optional<SftExample>> example = line(data, start, end, line, parser);
            start = end + 1;
            switch (example) {
                case Outcome.Refused<Optional<SftExample>> refused -> {
                    return Outcome.refused(refused.refusal());
                }
                case Outcome.Done<Optional<SftExample>> done when done.value().isEmpty() -> { }
                case Outcome.Done<Optional<SftExample>> done -> {
                    if (examples.size() == limits.maxExamples()) {
                        return Outcome.refused(limits.tooMany(line));
                    }
                    examples.add(done.value().get());
                }
            }
        }
        if (examples.isEmpty()) {
            return Outcome.refused(Refusal.invalid(SftLineReader.PARAM,
                    "training data is empty: it has no non-blank lines"));
        }
        return Outcome.done(List.copyOf(examples));
    }

    /** The example on one line, empty when the line is blank. */
    private static Outcome<Optional<SftExample>> line(byte[] data, int start, int end, int line, JsonLineParser parser) {
        int length = end - start;
        if (length > 0 && data[end - 1] == '\r') {
            length--;
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(data, start, length))
                    .toString();
        } catch (CharacterCodingException e) {
            return Outcome.refused(SftLineReader.refusal(line, "not valid UTF-8 text"));
        }
        if (text.isBlank()) {
            return Outcome.done(Optional.empty());
        }
        Object json;
        try {
            json = parser.parse(text);
        } catch (IllegalArgumentException e) {
            return Outcome.refused(SftLineReader.refusal(line, "not valid JSON: " + e.getMessage()));
        }
        return SftLineReader.read(line, json).map(Optional::of);
    }

    private static boolean startsWithBom(byte[] data) {
        return data.length >= BOM.length && data[0] == BOM[0] && data[1] == BOM[1] && data[2] == BOM[2];
    }

    /** The index of {@code b} at or after {@code from}, or {@code data.length} when there is none. */
    private static int indexOf(byte[] data, byte b, int from) {
        for (int i = from; i < data.length; i++) {
            if (data[i] == b) {
                return i;
            }
        }
        return data.length;
    }
}

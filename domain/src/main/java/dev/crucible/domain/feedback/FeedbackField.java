package dev.crucible.domain.feedback;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** A field that a feedback query selects, filters or sorts on: a column, or a path into the JSON payload. */
public sealed interface FeedbackField permits FeedbackField.Column, FeedbackField.PayloadPath {

    /** The key this field has in result rows: the column's spec name, or the path exactly as requested. */
    String name();

    /** A whole column. */
    record Column(FeedbackColumn column) implements FeedbackField {
        public Column {
            Objects.requireNonNull(column, "column");
        }

        @Override
        public String name() {
            return column.wireName();
        }
    }

    /**
     * A path into the payload, requested as {@code payload.a.b} ({@code \.} is a dot inside a key); a segment of
     * digits may also index an array.
     *
     * @param name the field as requested, which is its result-row key
     * @param path the keys after {@code payload}, unescaped; never empty
     */
    record PayloadPath(String name, List<String> path) implements FeedbackField {
        public PayloadPath {
            Objects.requireNonNull(name, "name");
            path = List.copyOf(path);
            if (path.isEmpty()) {
                throw new IllegalArgumentException("a payload path needs at least one key");
            }
        }
    }

    /** The field called {@code name}; empty when it is neither a known column nor {@code payload.<path>}. */
    static Optional<FeedbackField> parse(String name) {
        Optional<FeedbackColumn> column = FeedbackColumn.fromWire(name);
        if (column.isPresent()) {
            return Optional.of(new Column(column.get()));
        }
        String prefix = FeedbackColumn.PAYLOAD.wireName() + ".";
        if (!name.startsWith(prefix)) {
            return Optional.empty();
        }
        List<String> path = splitEscapedDots(name.substring(prefix.length()));
        if (path.stream().anyMatch(String::isEmpty)) {
            return Optional.empty();
        }
        return Optional.of(new PayloadPath(name, path));
    }

    /** Splits on dots that are not preceded by a backslash, turning {@code \.} into {@code .}. */
    private static List<String> splitEscapedDots(String text) {
        List<String> parts = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length() && text.charAt(i + 1) == '.') {
                current.append('.');
                i++;
            } else if (c == '.') {
                parts.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        parts.add(current.toString());
        return parts;
    }
}

package dev.crucible.domain.feedback;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Parses refs of the grammar {@code <scheme>:///<entity>/<project>/<kind>/<rest>}, following Weave's
 * {@code refs_internal.parse_internal_uri} (any scheme instead of only {@code weave}). Problems are reported with
 * Weave's wording, prefixed as {@code ensure_ref_is_valid} does: {@code Invalid ref: <ref>, <problem>}.
 */
public final class TraceRefParser {

    private static final Pattern PREFIX = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*):///(.*)", Pattern.DOTALL);

    private TraceRefParser() {
    }

    /** Parses {@code ref}; a refusal names {@code param} and says {@code Invalid ref: <ref>, <problem>}. */
    public static Outcome<TraceRef> parse(String ref, String param) {
        try {
            return Outcome.done(parseOrThrow(ref));
        } catch (Unparsable e) {
            return Outcome.refused(Refusal.invalid(param, "Invalid ref: " + ref + ", " + e.getMessage()));
        }
    }

    private static TraceRef parseOrThrow(String uri) {
        Matcher m = PREFIX.matcher(uri);
        if (!m.matches()) {
            throw new Unparsable("Invalid URI: " + uri + ". Must start with <scheme>:///");
        }
        String scheme = m.group(1);
        String[] parts = m.group(2).split("/", -1);
        if (parts.length < 3) {
            throw new Unparsable("Invalid URI: " + uri + ". Must have at least 3 parts");
        }
        if (parts[0].isEmpty() || parts[1].isEmpty()) {
            throw new Unparsable("Invalid URI: " + uri + ". Entity and project must not be empty");
        }
        ProjectId project = new ProjectId(parts[0], parts[1]);
        String kind = parts[2];
        List<String> remaining = Arrays.asList(parts).subList(3, parts.length);
        if (!List.of("table", "object", "op", "call").contains(kind)) {
            throw new Unparsable("Unknown ref kind: " + kind);
        }
        if (remaining.isEmpty()) {
            throw new Unparsable("Invalid URI: " + uri + ". Must have at least 4 parts");
        }
        return switch (kind) {
            case "table" -> new TableRef(scheme, project, remaining.getFirst());
            case "call" -> new CallRef(scheme, project, remaining.getFirst());
            case "op" -> {
                String[] nameVersion = nameAndVersion(remaining.getFirst());
                yield new OpRef(scheme, project, nameVersion[0], nameVersion[1], edges(remaining));
            }
            default -> {
                String[] nameVersion = nameAndVersion(remaining.getFirst());
                yield new ObjectRef(scheme, project, nameVersion[0], nameVersion[1], edges(remaining));
            }
        };
    }

    /** Python's {@code name, version = s.split(":")}, with its unpacking errors. */
    private static String[] nameAndVersion(String segment) {
        String[] split = segment.split(":", -1);
        if (split.length < 2) {
            throw new Unparsable("not enough values to unpack (expected 2, got " + split.length + ")");
        }
        if (split.length > 2) {
            throw new Unparsable("too many values to unpack (expected 2)");
        }
        return split;
    }

    /** The edge/value pairs after {@code name:version}, percent-decoded and checked as Weave's validate_extra. */
    private static List<RefEdge> edges(List<String> remaining) {
        List<String> extra = remaining.subList(1, remaining.size());
        if (extra.size() == 1 && extra.getFirst().isEmpty()) {
            return List.of();
        }
        List<String> decoded = extra.stream().map(TraceRefParser::unquote).toList();
        if (decoded.size() % 2 != 0) {
            throw new Unparsable("Extra fields must be key-value pairs.");
        }
        List<RefEdge> edges = new ArrayList<>();
        for (int i = 0; i < decoded.size(); i += 2) {
            int at = i;
            RefEdge.Kind kind = RefEdge.Kind.fromWire(decoded.get(i)).orElseThrow(
                    () -> new Unparsable("Invalid extra edge name at index " + at + ": " + pythonList(decoded)));
            String value = decoded.get(i + 1);
            if (kind == RefEdge.Kind.INDEX && !RefEdge.isInteger(value)) {
                throw new Unparsable("Invalid list edge value at index " + (i + 1) + ": " + pythonList(decoded));
            }
            edges.add(new RefEdge(kind, value));
        }
        return edges;
    }

    /** Python's {@code urllib.parse.unquote}: {@code %XX} decoded as UTF-8, {@code +} kept, malformed kept. */
    private static String unquote(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return s;
        }
    }

    /** A list of strings written as Python's {@code repr} would, for messages. */
    private static String pythonList(List<String> items) {
        return items.stream().map(s -> "'" + s + "'").collect(Collectors.joining(", ", "[", "]"));
    }

    /** Stops a parse with a problem; caught in {@link #parse} and never escapes it. */
    private static final class Unparsable extends RuntimeException {
        Unparsable(String message) {
            super(message, null, false, false);
        }
    }
}

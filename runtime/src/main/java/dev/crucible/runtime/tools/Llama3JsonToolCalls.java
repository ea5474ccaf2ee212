package dev.crucible.runtime.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * vLLM's {@code llama3_json} tool parser (Llama 3.1-style templates): a call is a JSON object
 * {@code {"name": …, "arguments"|"parameters": {…}}}, optionally after {@code <|python_tag|>}, several separated by
 * {@code ;}.
 *
 * <p>Whole text: the first run of {@code ;}-separated objects (nested at most two levels, as vLLM's regex finds them)
 * must all be calls, or the text stays content. Arguments are re-serialised as Python's {@code json.dumps} with its
 * default {@code ensure_ascii=True}. When tools are called the content is null: text around the JSON is dropped.
 *
 * <p>Streaming: a text that starts with {@code {} or {@code <|python_tag|>} is read as calls (first piece with id and
 * name, then argument text as it grows); any other text streams as content. If the sequence ends without a call, the
 * held text is sent as content.
 */
final class Llama3JsonToolCalls {

    static final String BOT = "<|python_tag|>";
    /** Llama 3 writes {@code arguments} or {@code parameters}; they are rendered with {@code ensure_ascii}. */
    private static final CallProgress.Arguments ARGUMENTS = new CallProgress.Arguments("arguments", "parameters", true);
    private static final String OBJECT = "\\{[^{}]*(?:\\{[^{}]*\\}[^{}]*)*\\}";
    private static final Pattern CALLS = Pattern.compile(OBJECT + "(?:\\s*;\\s*" + OBJECT + ")*",
            Pattern.DOTALL | Pattern.UNICODE_CHARACTER_CLASS);

    private Llama3JsonToolCalls() {
    }

    static ToolCallOutput extract(String text) {
        if (!text.contains(BOT) && !text.contains("{")) {
            return ToolCallOutput.none(text);
        }
        Matcher m = CALLS.matcher(text);
        if (!m.find()) {
            return ToolCallOutput.none(text);
        }
        List<ToolCall> calls = new ArrayList<>();
        for (String part : m.group().split(";")) {
            String json = part.strip();
            if (json.isEmpty()) {
                continue;
            }
            Optional<ToolCall> call = PartialJson.loads(json)
                    .flatMap(v -> HermesToolCalls.call(v.value(), "arguments", "parameters", true));
            if (call.isEmpty()) {
                return ToolCallOutput.none(text);
            }
            calls.add(call.get());
        }
        return new ToolCallOutput(Optional.empty(), calls);
    }

    static ToolCallStream stream() {
        return new Stream();
    }

    private static final class Stream implements ToolCallStream {

        private final StringBuilder text = new StringBuilder();
        private final List<CallProgress> calls = new ArrayList<>();
        private Boolean toolMode;
        private boolean called;

        @Override
        public ToolStreamDelta next(String delta, boolean finished) {
            text.append(delta);
            if (toolMode == null) {
                String s = text.toString();
                if (s.startsWith(BOT) || s.startsWith("{")) {
                    toolMode = true;
                } else if (!finished && BOT.startsWith(s)) {
                    return new ToolStreamDelta("", List.of());
                } else {
                    toolMode = false;
                    return new ToolStreamDelta(s, List.of());
                }
            }
            if (!toolMode) {
                return new ToolStreamDelta(delta, List.of());
            }
            List<ToolCallDelta> pieces = new ArrayList<>();
            String s = text.toString();
            int start = s.startsWith(BOT) ? BOT.length() : 0;
            for (int i = 0; start < s.length(); i++) {
                PartialJson.Parsed parsed = PartialJson.parse(s, start);
                if (!(parsed.node().orElse(null) instanceof PartialJson.Obj call)) {
                    break;
                }
                if (calls.size() == i) {
                    calls.add(new CallProgress(i, ARGUMENTS));
                }
                pieces.addAll(calls.get(i).advance(call));
                if (!call.complete()) {
                    break;
                }
                start = skipSeparator(s, parsed.end());
                if (start < 0) {
                    break;
                }
            }
            called |= calls.stream().anyMatch(CallProgress::nameSent);
            String content = finished && !called ? s : "";
            return new ToolStreamDelta(content, pieces);
        }

        /** The position after {@code ;} and surrounding whitespace, or -1 when no separator follows. */
        private static int skipSeparator(String s, int from) {
            int i = from;
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            if (i >= s.length() || s.charAt(i) != ';') {
                return -1;
            }
            i++;
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            return i;
        }

        @Override
        public boolean calledTools() {
            return called;
        }
    }
}

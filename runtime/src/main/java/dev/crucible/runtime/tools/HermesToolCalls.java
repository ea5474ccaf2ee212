package dev.crucible.runtime.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * vLLM's {@code hermes} tool parser (Qwen2.5, Qwen3, Hermes): calls are written
 * {@code <tool_call>{"name": …, "arguments": {…}}</tool_call>}.
 *
 * <p>Whole text: every {@code <tool_call>…</tool_call>} (and a last unclosed {@code <tool_call>…}) must hold a JSON
 * object with a string {@code name} and an {@code arguments} key, or nothing is a call and the text stays content.
 * Arguments are re-serialised as Python's {@code json.dumps(…, ensure_ascii=False)}. The content is the text before
 * the first call, empty (null) when there is none; as in vLLM, text after the first call is dropped.
 *
 * <p>Streaming: text outside calls streams as content (a possible {@code <tool_call>} prefix is held back); inside a
 * call the first piece carries id and name once the name is complete, then argument text as it grows. A call that
 * closes without a readable name streams as plain content.
 */
final class HermesToolCalls {

    static final String START = "<tool_call>";
    static final String END = "</tool_call>";
    private static final CallProgress.Arguments ARGUMENTS = new CallProgress.Arguments("arguments", null, false);
    private static final Pattern CALL = Pattern.compile("<tool_call>(.*?)</tool_call>|<tool_call>(.*)", Pattern.DOTALL);

    private HermesToolCalls() {
    }

    static ToolCallOutput extract(String text) {
        if (!text.contains(START)) {
            return ToolCallOutput.none(text);
        }
        List<ToolCall> calls = new ArrayList<>();
        Matcher m = CALL.matcher(text);
        while (m.find()) {
            String body = m.group(1) != null ? m.group(1) : m.group(2);
            Optional<ToolCall> call = PartialJson.loads(body).flatMap(v -> call(v.value(), "arguments", null, false));
            if (call.isEmpty()) {
                return ToolCallOutput.none(text);
            }
            calls.add(call.get());
        }
        String content = text.substring(0, text.indexOf(START));
        return new ToolCallOutput(content.isEmpty() ? Optional.empty() : Optional.of(content), calls);
    }

    /**
     * A call from a parsed JSON value: an object with a string {@code name} and the arguments under
     * {@code argumentsKey} (or {@code fallbackKey} when given and the first is absent); empty otherwise.
     */
    static Optional<ToolCall> call(Object value, String argumentsKey, String fallbackKey, boolean ensureAscii) {
        if (!(value instanceof Map<?, ?> map) || !(map.get("name") instanceof String name)) {
            return Optional.empty();
        }
        String key = map.containsKey(argumentsKey) || fallbackKey == null ? argumentsKey : fallbackKey;
        if (!map.containsKey(key)) {
            return Optional.empty();
        }
        return Optional.of(ToolCall.of(name, PartialJson.dumps(ensureAscii).dumps(map.get(key))));
    }

    static ToolCallStream stream() {
        return new Stream();
    }

    private static final class Stream implements ToolCallStream {

        private final StringBuilder text = new StringBuilder();
        private int cursor;
        private int callStart = -1;
        private int calls;
        private CallProgress current;
        private boolean called;

        @Override
        public ToolStreamDelta next(String delta, boolean finished) {
            text.append(delta);
            StringBuilder content = new StringBuilder();
            List<ToolCallDelta> pieces = new ArrayList<>();
            while (true) {
                if (callStart < 0) {
                    int tag = text.indexOf(START, cursor);
                    if (tag < 0) {
                        int safe = finished ? text.length() : text.length() - heldBack();
                        content.append(text, cursor, safe);
                        cursor = safe;
                        break;
                    }
                    content.append(text, cursor, tag);
                    callStart = tag + START.length();
                    cursor = callStart;
                    current = new CallProgress(calls, ARGUMENTS);
                    continue;
                }
                int end = text.indexOf(END, callStart);
                String body = text.substring(callStart, end < 0 ? text.length() : end);
                if (PartialJson.parse(body, 0).node().orElse(null) instanceof PartialJson.Obj call) {
                    pieces.addAll(current.advance(call));
                }
                if (end < 0) {
                    if (finished && !current.nameSent()) {
                        content.append(START).append(body);
                        cursor = text.length();
                    }
                    break;
                }
                if (current.nameSent()) {
                    calls++;
                    called = true;
                } else {
                    content.append(text, callStart - START.length(), end + END.length());
                }
                cursor = end + END.length();
                callStart = -1;
            }
            if (callStart >= 0 && current.nameSent()) {
                called = true;
            }
            return new ToolStreamDelta(content.toString(), pieces);
        }

        /** How many trailing chars could be the start of {@code <tool_call>}. */
        private int heldBack() {
            for (int k = Math.min(START.length() - 1, text.length() - cursor); k > 0; k--) {
                if (START.startsWith(text.substring(text.length() - k))) {
                    return k;
                }
            }
            return 0;
        }

        @Override
        public boolean calledTools() {
            return called;
        }
    }
}

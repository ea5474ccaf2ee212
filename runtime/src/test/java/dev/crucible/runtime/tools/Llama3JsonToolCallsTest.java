package dev.crucible.runtime.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.hf.config.Architecture;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class Llama3JsonToolCallsTest {

    @Test
    void readsSemicolonSeparatedCallsWithParametersAndEnsureAsciiArguments() {
        ToolCallOutput out = ToolCallFormat.LLAMA3_JSON.extract(
                "{\"name\": \"a\", \"parameters\": {\"city\": \"Zürich\"}}; {\"name\": \"b\", \"arguments\": {}}");
        assertEquals(Optional.empty(), out.content());
        assertEquals(List.of("a", "b"), out.calls().stream().map(ToolCall::name).toList());
        assertEquals("{\"city\": \"Z\\u00fcrich\"}", out.calls().getFirst().arguments());
    }

    @Test
    void plainTextOrJsonThatIsNotACallStaysContent() {
        assertFalse(ToolCallFormat.LLAMA3_JSON.extract("Hello").called());
        assertFalse(ToolCallFormat.LLAMA3_JSON.extract("{\"x\": 1}").called());
    }

    @Test
    void streamsACallInPieces() {
        String text = "{\"name\": \"f\", \"parameters\": {\"q\": \"abc\"}}";
        ToolCallStream stream = ToolCallFormat.LLAMA3_JSON.stream();
        List<ToolCallDelta> pieces = new ArrayList<>();
        for (int i = 0; i < text.length(); i += 4) {
            pieces.addAll(stream.next(text.substring(i, Math.min(text.length(), i + 4)), i + 4 >= text.length()).calls());
        }
        assertEquals(Optional.of("f"), pieces.getFirst().name());
        assertEquals("{\"q\": \"abc\"}", String.join("", pieces.stream().map(ToolCallDelta::arguments).toList()));
    }

    @Test
    void theFormatIsPickedFromTheTemplate() {
        assertEquals(Optional.of(ToolCallFormat.HERMES),
                ToolCallFormat.of(Architecture.QWEN3, Optional.of("...<tool_call>...")));
        assertEquals(Optional.of(ToolCallFormat.LLAMA3_JSON),
                ToolCallFormat.of(Architecture.LLAMA, Optional.of("...<|python_tag|>...")));
        assertEquals(Optional.empty(), ToolCallFormat.of(Architecture.LLAMA, Optional.of("{{ messages }}")));
        assertTrue(ToolCallFormat.of(Architecture.QWEN2, Optional.empty()).isEmpty());
    }
}

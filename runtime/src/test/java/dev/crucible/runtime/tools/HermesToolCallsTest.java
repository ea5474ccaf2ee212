package dev.crucible.runtime.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HermesToolCallsTest {

    private static final String CALL = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Zürich\","
            + "\"days\":2}}\n</tool_call>";

    @Test
    void extractsCallsWithPythonSerialisedArgumentsAndKeepsTheTextBefore() {
        ToolCallOutput out = ToolCallFormat.HERMES.extract("Let me check.\n" + CALL + "\n" + CALL.replace("Zürich", "Bern"));
        assertEquals(Optional.of("Let me check.\n"), out.content());
        assertEquals(2, out.calls().size());
        assertEquals("get_weather", out.calls().getFirst().name());
        assertEquals("{\"city\": \"Zürich\", \"days\": 2}", out.calls().getFirst().arguments());
        assertTrue(out.calls().getFirst().id().matches("chatcmpl-tool-[0-9a-f]{32}"), out.calls().getFirst().id());
    }

    @Test
    void contentIsNullWhenOnlyCallsWereWritten() {
        ToolCallOutput out = ToolCallFormat.HERMES.extract(CALL);
        assertEquals(Optional.empty(), out.content());
        assertTrue(out.called());
    }

    @Test
    void malformedJsonOrAMissingKeyLeavesEverythingAsContent() {
        String bad = "x<tool_call>{\"name\": \"f\", \"arguments\": {</tool_call>";
        assertEquals(ToolCallOutput.none(bad), ToolCallFormat.HERMES.extract(bad));
        String noArgs = "<tool_call>{\"name\": \"f\"}</tool_call>";
        assertFalse(ToolCallFormat.HERMES.extract(noArgs).called());
        String numberName = "<tool_call>{\"name\": 3, \"arguments\": {}}</tool_call>";
        assertFalse(ToolCallFormat.HERMES.extract(numberName).called());
        assertFalse(ToolCallFormat.HERMES.extract(CALL + "<tool_call>[1]</tool_call>").called(), "one bad call spoils all");
    }

    @Test
    void anUnclosedLastCallIsParsedToTheEnd() {
        ToolCallOutput out = ToolCallFormat.HERMES.extract("<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": [1, 2.50]}}");
        assertEquals("{\"a\": [1, 2.5]}", out.calls().getFirst().arguments());
    }

    @Test
    void streamingSendsNameFirstThenArgumentPiecesThatConcatenateToTheArguments() {
        String text = "Sure. " + CALL;
        ToolCallStream stream = ToolCallFormat.HERMES.stream();
        StringBuilder content = new StringBuilder();
        List<ToolCallDelta> pieces = new ArrayList<>();
        for (int i = 0; i < text.length(); i += 3) {
            ToolStreamDelta d = stream.next(text.substring(i, Math.min(text.length(), i + 3)), i + 3 >= text.length());
            content.append(d.content());
            pieces.addAll(d.calls());
        }
        assertEquals("Sure. ", content.toString(), "the tag is held back, never streamed as content");
        assertTrue(pieces.getFirst().first());
        assertEquals(Optional.of("get_weather"), pieces.getFirst().name());
        assertTrue(pieces.stream().skip(1).noneMatch(ToolCallDelta::first));
        assertTrue(pieces.size() > 3, "arguments arrive in pieces: " + pieces);
        assertEquals(ToolCallFormat.HERMES.extract(text).calls().getFirst().arguments(),
                String.join("", pieces.stream().map(ToolCallDelta::arguments).toList()));
        assertTrue(stream.calledTools());
    }

    @Test
    void aStreamedCallWithoutANameIsSentAsContent() {
        ToolCallStream stream = ToolCallFormat.HERMES.stream();
        ToolStreamDelta d = stream.next("a<tool_call>oops</tool_call>b", true);
        assertEquals("a<tool_call>oops</tool_call>b", d.content());
        assertFalse(stream.calledTools());
    }

    @Test
    void parallelToolCallsFalseKeepsOnlyTheFirstCall() {
        ToolCalling single = ToolCalling.auto(ToolCallFormat.HERMES, false);
        assertEquals(1, single.extract(CALL + CALL).calls().size());
        ToolCallStream stream = single.stream();
        List<ToolCallDelta> pieces = stream.next(CALL + CALL, true).calls();
        assertTrue(pieces.stream().allMatch(p -> p.index() == 0), pieces.toString());
    }
}

package dev.crucible.runtime.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.runtime.generation.stopping.FinishReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ForcedToolCallsTest {

    private static final ToolCalling NAMED = new ToolCalling(new ToolCalling.Named("get_weather"), true);
    private static final ToolCalling REQUIRED = new ToolCalling(new ToolCalling.Required(), true);
    private static final String CALLS = "[ {\"name\": \"get_weather\", \"parameters\": {\"city\":\"Zürich\",\"days\":2}},"
            + "\n {\"parameters\": {}, \"name\": \"get_time\"} ]";

    /** Feeds {@code text} in pieces of {@code size} characters and collects what the stream sends. */
    private static List<ToolCallDelta> stream(ToolCalling calling, String text, int size) {
        ToolCallStream stream = calling.stream();
        List<ToolCallDelta> pieces = new ArrayList<>();
        for (int i = 0; i < text.length(); i += size) {
            ToolStreamDelta d = stream.next(text.substring(i, Math.min(text.length(), i + size)),
                    i + size >= text.length());
            assertEquals("", d.content());
            pieces.addAll(d.calls());
        }
        return pieces;
    }

    private static String arguments(List<ToolCallDelta> pieces, int index) {
        StringBuilder out = new StringBuilder();
        pieces.stream().filter(p -> p.index() == index).forEach(p -> out.append(p.arguments()));
        return out.toString();
    }

    @Test
    void aNamedChoiceMakesOneCallWhoseArgumentsAreTheOutputVerbatim() {
        String text = "{ \"city\":  \"Oslo\"}";
        ToolCallOutput out = NAMED.extract(text);
        assertEquals(Optional.of(""), out.content());
        assertEquals(1, out.calls().size());
        assertEquals("get_weather", out.calls().getFirst().name());
        assertEquals(text, out.calls().getFirst().arguments());
        assertTrue(out.calls().getFirst().id().matches("chatcmpl-tool-[0-9a-f]{32}"));
    }

    @Test
    void aNamedChoiceStreamsTheNameWithTheFirstTextThenEachNewPiece() {
        String text = "{\"city\": \"Oslo\"}";
        List<ToolCallDelta> pieces = stream(NAMED, text, 4);
        assertTrue(pieces.getFirst().first());
        assertEquals(Optional.of("get_weather"), pieces.getFirst().name());
        assertEquals("{\"ci", pieces.getFirst().arguments());
        assertTrue(pieces.stream().skip(1).noneMatch(ToolCallDelta::first));
        assertTrue(pieces.stream().allMatch(p -> p.index() == 0));
        assertEquals(text, arguments(pieces, 0));
    }

    @Test
    void aRequiredChoiceMakesACallPerItemWithPythonSerialisedParameters() {
        ToolCallOutput out = REQUIRED.extract(CALLS);
        assertEquals(Optional.of(""), out.content());
        assertEquals(List.of("get_weather", "get_time"), out.calls().stream().map(ToolCall::name).toList());
        assertEquals("{\"city\": \"Zürich\", \"days\": 2}", out.calls().getFirst().arguments());
        assertEquals("{}", out.calls().get(1).arguments());
        assertEquals(2, out.calls().stream().map(ToolCall::id).distinct().count());
    }

    @Test
    void outputThatIsNotAnArrayOfCallsMakesNoCallsAndStaysContent() {
        for (String text : List.of("[{\"name\": \"get_weather\", \"parameters\": {\"ci", "{\"name\": \"f\"}",
                "[{\"name\": 1, \"parameters\": {}}]", "[{\"name\": \"f\", \"parameters\": [1]}]")) {
            assertEquals(ToolCallOutput.none(text), REQUIRED.extract(text), text);
        }
    }

    @Test
    void aRequiredChoiceStreamsEachCallsArgumentsToTheNonStreamedString() {
        for (int size : List.of(1, 3, 7, CALLS.length())) {
            List<ToolCallDelta> pieces = stream(REQUIRED, CALLS, size);
            List<ToolCallDelta> firsts = pieces.stream().filter(ToolCallDelta::first).toList();
            assertEquals(2, firsts.size(), pieces.toString());
            assertEquals(List.of(0, 1), firsts.stream().map(ToolCallDelta::index).toList());
            assertEquals(Optional.of("get_time"), firsts.get(1).name());
            assertEquals("{\"city\": \"Zürich\", \"days\": 2}", arguments(pieces, 0));
            assertEquals("{}", arguments(pieces, 1));
        }
    }

    @Test
    void parallelToolCallsFalseKeepsTheFirstRequiredCall() {
        ToolCalling single = new ToolCalling(new ToolCalling.Required(), false);
        assertEquals(1, single.extract(CALLS).calls().size());
        assertTrue(stream(single, CALLS, 5).stream().allMatch(p -> p.index() == 0));
    }

    @Test
    void finishReasonsFollowVllm() {
        assertEquals("stop", NAMED.finishReason(FinishReason.STOP, true, false), "named: OpenAI's stop");
        assertEquals("stop", NAMED.finishReason(FinishReason.STOP, true, true));
        assertEquals("tool_calls", REQUIRED.finishReason(FinishReason.STOP, true, false));
        assertEquals("tool_calls", REQUIRED.finishReason(FinishReason.STOP, true, true));
        assertEquals("length", REQUIRED.finishReason(FinishReason.LENGTH, true, true));
        ToolCalling auto = ToolCalling.auto(ToolCallFormat.HERMES, true);
        assertEquals("tool_calls", auto.finishReason(FinishReason.LENGTH, true, false));
        assertEquals("length", auto.finishReason(FinishReason.LENGTH, true, true));
        assertEquals("stop", auto.finishReason(FinishReason.STOP, false, false));
        assertFalse(REQUIRED.stream().calledTools());
    }
}

package dev.crucible.application.inference.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.crucible.application.inference.chat.answer.ChatChoice;
import dev.crucible.application.inference.chat.answer.ChatCompletion;
import dev.crucible.application.inference.chat.answer.ChatFinish;
import dev.crucible.application.inference.chat.answer.ChatLogprob;
import dev.crucible.application.inference.chat.answer.ChatPositionLogprobs;
import dev.crucible.application.inference.chat.answer.ChatRankedLogprob;
import dev.crucible.application.inference.chat.answer.ChatStart;
import dev.crucible.application.inference.chat.answer.ChatToolCallDelta;
import dev.crucible.application.inference.chat.answer.ChatUsage;
import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.runtime.generation.stopping.Finish;
import dev.crucible.runtime.generation.stopping.FinishReason;
import dev.crucible.runtime.generation.GenerationResult;
import dev.crucible.runtime.generation.logprobs.PositionLogprobs;
import dev.crucible.runtime.generation.logprobs.PromptLogprobs;
import dev.crucible.runtime.generation.logprobs.RankedLogprob;
import dev.crucible.runtime.generation.SequenceOutput;
import dev.crucible.runtime.generation.stopping.StopReason;
import dev.crucible.runtime.generation.logprobs.TokenLogprob;
import dev.crucible.runtime.tools.ToolCallDelta;
import dev.crucible.runtime.tools.ToolCalling;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The runtime's generation results as the use case's records, with tool calls parsed and finish reasons renamed. */
class ChatResultsTest {

    private static final ChatStart START = new ChatStart("m",
            ChatRequest.of(List.of(Map.of("role", "user", "content", "Hi"))), List.of(1, 2, 3));

    private static TokenLogprob token(int id, String text, double logprob) {
        return new TokenLogprob(id, text, text.getBytes(StandardCharsets.UTF_8), logprob);
    }

    private static SequenceOutput sequence(int index, String text, List<Integer> ids, FinishReason reason) {
        return new SequenceOutput(index, ids, text, List.of(), new Finish(reason, Optional.empty()));
    }

    @Test
    void completionWithoutToolCallingKeepsTextUsageAndEngineReason() {
        SequenceOutput first = new SequenceOutput(0, List.of(7, 8), "hi", List.of(new PositionLogprobs(
                token(7, "h", -0.5), List.of(token(7, "h", -0.5), token(9, "x", -1.5)))),
                new Finish(FinishReason.STOP, Optional.of(new StopReason.TokenId(2))));
        SequenceOutput second = sequence(1, "hello", List.of(7, 8, 9), FinishReason.LENGTH);

        ChatCompletion c = ChatResults.completion(START,
                new GenerationResult(3, List.of(first, second), Optional.empty()), Optional.empty());

        assertSame(START, c.start());
        assertEquals(new ChatUsage(3, 5, 0), c.usage());
        assertEquals(Optional.empty(), c.promptLogprobs());
        ChatChoice a = c.choices().get(0);
        assertEquals(0, a.index());
        assertEquals(Optional.of("hi"), a.content());
        assertEquals(List.of(), a.toolCalls());
        assertEquals(List.of(7, 8), a.tokenIds());
        assertEquals(new ChatFinish("stop", Optional.of(new ChatFinish.StopToken(2))), a.finish());
        assertEquals(List.of(new ChatPositionLogprobs(new ChatLogprob(7, "h", -0.5),
                List.of(new ChatLogprob(7, "h", -0.5), new ChatLogprob(9, "x", -1.5)))), a.logprobs());
        ChatChoice b = c.choices().get(1);
        assertEquals(1, b.index());
        assertEquals(Optional.of("hello"), b.content());
        assertEquals(new ChatFinish("length", Optional.empty()), b.finish());
    }

    @Test
    void promptLogprobsKeepTokensAndRanks() {
        GenerationResult result = new GenerationResult(2, List.of(sequence(0, "a", List.of(5), FinishReason.STOP)),
                Optional.of(List.of(new PromptLogprobs(List.of(new RankedLogprob(token(1, "x", -0.25), 1),
                        new RankedLogprob(token(4, "y", -2.0), 3))))));

        ChatCompletion c = ChatResults.completion(START, result, Optional.empty());

        assertEquals(Optional.of(List.of(List.of(new ChatRankedLogprob(new ChatLogprob(1, "x", -0.25), 1),
                new ChatRankedLogprob(new ChatLogprob(4, "y", -2.0), 3)))), c.promptLogprobs());
    }

    @Test
    void namedToolChoiceTurnsTheOutputIntoOneCallAndKeepsTheEngineReason() {
        ChatCompletion c = ChatResults.completion(START, new GenerationResult(1,
                List.of(sequence(0, "{\"x\": 1}", List.of(5), FinishReason.STOP)), Optional.empty()),
                Optional.of(new ToolCalling(new ToolCalling.Named("f"), true)));

        ChatChoice choice = c.choices().getFirst();
        assertEquals(Optional.of(""), choice.content());
        assertEquals(1, choice.toolCalls().size());
        assertEquals("f", choice.toolCalls().getFirst().name());
        assertEquals("{\"x\": 1}", choice.toolCalls().getFirst().arguments());
        assertEquals("stop", choice.finish().reason());
    }

    @Test
    void requiredToolChoiceReportsToolCallsAfterAStop() {
        ChatCompletion c = ChatResults.completion(START, new GenerationResult(1,
                List.of(sequence(0, "[{\"name\": \"g\", \"parameters\": {}}]", List.of(5), FinishReason.STOP)),
                Optional.empty()), Optional.of(new ToolCalling(new ToolCalling.Required(), true)));

        ChatChoice choice = c.choices().getFirst();
        assertEquals("g", choice.toolCalls().getFirst().name());
        assertEquals(new ChatFinish("tool_calls", Optional.empty()), choice.finish());
    }

    @Test
    void finishMapsStopCausesIncludingRepetition() {
        assertEquals(new ChatFinish("stop", Optional.of(new ChatFinish.StopString("END"))), ChatResults.finish("stop",
                new Finish(FinishReason.STOP, Optional.of(new StopReason.StopString("END")))));
        assertEquals(new ChatFinish("tool_calls", Optional.of(new ChatFinish.StopToken(4))),
                ChatResults.finish("tool_calls", new Finish(FinishReason.STOP, Optional.of(new StopReason.TokenId(4)))));
        assertEquals(new ChatFinish("repetition", Optional.of(new ChatFinish.RepetitionDetected())),
                ChatResults.finish("repetition",
                new Finish(FinishReason.REPETITION, Optional.of(new StopReason.RepetitionDetected()))));
    }

    @Test
    void toolCallDeltaCopiesEveryField() {
        assertEquals(new ChatToolCallDelta(2, Optional.of("id"), Optional.of("f"), "{\"a\""),
                ChatResults.toolCallDelta(new ToolCallDelta(2, Optional.of("id"), Optional.of("f"), "{\"a\"")));
    }
}

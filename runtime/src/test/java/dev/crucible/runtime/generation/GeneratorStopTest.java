package dev.crucible.runtime.generation;

import static dev.crucible.runtime.generation.FakeTokenizer.A;
import static dev.crucible.runtime.generation.FakeTokenizer.B;
import static dev.crucible.runtime.generation.FakeTokenizer.D;
import static dev.crucible.runtime.generation.FakeTokenizer.EOS;
import static dev.crucible.runtime.generation.FakeTokenizer.EXTRA_EOS;
import static dev.crucible.runtime.generation.FakeTokenizer.SPACE_C;
import static dev.crucible.runtime.generation.FakeTokenizer.STOP;
import static dev.crucible.runtime.generation.Generations.only;
import static dev.crucible.runtime.generation.Generations.scripted;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.runtime.generation.stopping.Finish;
import dev.crucible.runtime.generation.stopping.FinishReason;
import dev.crucible.runtime.generation.stopping.StopReason;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GeneratorStopTest {

    private static void assertFinish(SequenceOutput out, FinishReason reason, StopReason stopReason) {
        assertEquals(new Finish(reason, Optional.ofNullable(stopReason)), out.finish());
    }

    @Test
    void greedyFollowsTheModelUntilEosWhoseTextIsLeftOut() {
        SequenceOutput out = only(scripted(2, A, B, SPACE_C, EOS), b -> b);
        assertEquals(List.of(A, B, SPACE_C, EOS), out.tokenIds());
        assertEquals("ab c", out.text());
        assertFinish(out, FinishReason.STOP, null);
    }

    @Test
    void stopTokenIdsReportTheIdAndDropItsTextUnlessIncluded() {
        SequenceOutput out = only(scripted(2, A, STOP, B), b -> b.stopTokenIds(List.of(STOP)));
        assertEquals(List.of(A, STOP), out.tokenIds());
        assertEquals("a", out.text());
        assertFinish(out, FinishReason.STOP, new StopReason.TokenId(STOP));
        assertEquals("aSTOP", only(scripted(2, A, STOP, B),
                b -> b.stopTokenIds(List.of(STOP)).includeStopStrInOutput(true)).text());
    }

    @Test
    void generationConfigEosIdsActAsStopIdsUnlessEosIsIgnored() {
        assertFinish(only(scripted(2, A, EXTRA_EOS), b -> b), FinishReason.STOP, new StopReason.TokenId(EXTRA_EOS));
        SequenceOutput ignoring = only(scripted(2, A, EXTRA_EOS, EOS), b -> b.ignoreEos(true).maxTokens(5));
        assertEquals(List.of(A, EXTRA_EOS, EOS, EOS, EOS), ignoring.tokenIds());
        assertFinish(ignoring, FinishReason.LENGTH, null);
    }

    @Test
    void maxTokensAndTheContextLengthGiveLength() {
        SequenceOutput capped = only(scripted(2, A, B), b -> b.maxTokens(3));
        assertEquals(List.of(A, B, B), capped.tokenIds());
        assertFinish(capped, FinishReason.LENGTH, null);
        SequenceOutput full = Generations.generate(scripted(2, A), 6, Generations.PROMPT, b -> b).sequences()
                .getFirst();
        assertEquals(4, full.tokenIds().size());
        assertFinish(full, FinishReason.LENGTH, null);
    }

    @Test
    void stopStringsCutTheTextButNotTheTokens() {
        SequenceOutput out = only(scripted(2, A, B, SPACE_C, D, EOS), b -> b.stop(List.of("x", "b c")));
        assertEquals(List.of(A, B, SPACE_C), out.tokenIds());
        assertEquals("a", out.text());
        assertFinish(out, FinishReason.STOP, new StopReason.StopString("b c"));
        assertEquals("ab c", only(scripted(2, A, B, SPACE_C, D, EOS),
                b -> b.stop(List.of("b c")).includeStopStrInOutput(true)).text());
        // list order decides between matches in the same new text, not position
        SequenceOutput ordered = only(scripted(2, A, SPACE_C, EOS), b -> b.stop(List.of("c", " ")));
        assertEquals("a ", ordered.text());
        assertFinish(ordered, FinishReason.STOP, new StopReason.StopString("c"));
        // the prompt's text is never searched
        assertFinish(only(scripted(2, A, A, EOS), b -> b.stop(List.of("<|x|>d"))), FinishReason.STOP, null);
    }

    @Test
    void minTokensHidesEosAndDelaysStopStrings() {
        SequenceOutput out = only(scripted(2, EOS), b -> b.minTokens(2));
        // EOS is masked, and the first of the equal zero logits is token 1
        assertEquals(List.of(A, A, EOS), out.tokenIds());
        SequenceOutput delayed = only(scripted(2, A, A, B, EOS), b -> b.minTokens(1).stop(List.of("a")));
        assertEquals(List.of(A, A), delayed.tokenIds());
        assertEquals("a", delayed.text());
    }

    @Test
    void repetitionDetectionEndsARepeatedToken() {
        SequenceOutput out = only(scripted(2, A), b -> b.repetitionDetection(2, 0, 3));
        assertEquals(List.of(A, A, A), out.tokenIds());
        assertFinish(out, FinishReason.REPETITION, new StopReason.RepetitionDetected());
        SequenceOutput pattern = only(scripted(2, A, B, A, B, A, B, D), b -> b.repetitionDetection(5, 2, 3));
        assertEquals(List.of(A, B, A, B, A, B), pattern.tokenIds());
        // patterns of 3 need 9 tokens, so the same output runs on to EOS
        assertFinish(only(scripted(2, A, B, A, B, A, B, D, EOS), b -> b.repetitionDetection(5, 3, 3)),
                FinishReason.STOP, null);
    }
}

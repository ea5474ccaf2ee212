package dev.crucible.runtime.training;

import static dev.crucible.runtime.training.TrainingFixtures.choice;
import static dev.crucible.runtime.training.TrainingFixtures.conversation;
import static dev.crucible.runtime.training.TrainingFixtures.message;
import static dev.crucible.runtime.training.TrainingFixtures.said;
import static dev.crucible.runtime.training.TrainingFixtures.sampled;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.testsupport.tokenizer.CharTokenizer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TrajectoryTokenizerTest {

    private final CharTokenizer tok = new CharTokenizer();
    private final TrajectoryTokenizer tokenizer = new TrajectoryTokenizer(TrainingFixtures.model(4096), false);

    @Test
    void theSampledTokensAreSplicedIntoThePromptAndAreTheOnlyTargets() {
        TokenizedTurns.Turns turns = tokenizer.tokenize(conversation(said("user", "hi"), choice("yo", true)), "t").orElseThrow();
        int[] prompt = tok.encode("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n", false);
        assertEquals(prompt.length + 3, turns.tokenIds().length, "prompt, y, o, <|im_end|>; the template's repeat of "
                + "<|im_end|> is dropped and the history ends with the trained turn");
        assertArrayEquals(new int[] {prompt.length, prompt.length + 1, prompt.length + 2}, turns.targets());
        assertArrayEquals(new float[] {-0.5f, -0.5f, -0.25f}, turns.logprobs());
        assertEquals(CharTokenizer.IM_END, turns.tokenIds()[turns.tokenIds().length - 1]);
    }

    @Test
    void laterTurnsAfterTheLastTrainedOneAreCutAndEarlierChoicesWithoutLogprobsAreContext() {
        Conversation.Turn untrained = new Conversation.Turn(message("assistant", "ab"), true, Optional.empty());
        TokenizedTurns.Turns turns = tokenizer.tokenize(conversation(said("user", "q"), untrained,
                said("user", "r"), choice("c", false), said("user", "more")), "t").orElseThrow();
        String text = tok.decode(turns.tokenIds(), false);
        assertEquals("<|im_start|>user\nq<|im_end|>\n<|im_start|>assistant\nab<|im_end|>\n<|im_start|>user\nr<|im_end|>"
                + "\n<|im_start|>assistant\nc", text);
        assertEquals(1, turns.targets().length);
    }

    @Test
    void aSingleTrainedTurnFollowsTheGenerationPromptNotTheTemplatesHistoryRendering() {
        // Like Qwen3: a final assistant message in history gets an empty think block the sampler never saw.
        String thinking = "{%- for m in messages %}{{ '<|im_start|>' + m['role'] + '\\n' }}"
                + "{%- if m['role'] == 'assistant' and loop.last %}{{ '<think></think>' }}{%- endif %}"
                + "{{ m['content'] + '<|im_end|>\\n' }}{%- endfor %}"
                + "{%- if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{%- endif %}";
        TrainingModel model = new TrainingModel(new CharTokenizer(),
                ((dev.crucible.kernel.refusal.Outcome.Done<dev.crucible.runtime.template.ChatTemplate>)
                        dev.crucible.runtime.template.ChatTemplate.compile(thinking)).value(),
                Map.of(), 4096, new CharTokenizer().vocabSize());
        TokenizedTurns.Turns turns = new TrajectoryTokenizer(model, false)
                .tokenize(conversation(said("user", "hi"), choice("yo", false)), "t").orElseThrow();
        assertEquals("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\nyo", tok.decode(turns.tokenIds(), false));
    }

    @Test
    void aConversationWithNothingSampledHasNothingToTrainUnlessTrainingWithoutLogprobsIsAllowed() {
        Conversation items = conversation(said("user", "q"), said("assistant", "ok"));
        assertEquals(Optional.empty(), tokenizer.tokenize(items, "t"));
        TokenizedTurns.Turns turns = new TrajectoryTokenizer(TrainingFixtures.model(4096), true)
                .tokenize(items, "t").orElseThrow();
        assertEquals(2, turns.targets().length);
        assertTrue(Float.isNaN(turns.logprobs()[0]), "no sampler logprob: trained on-policy");
    }

    @Test
    void tokensWrittenAsTextAreFoundByTheirBytesAsOpenAiLogprobsCarryThem() {
        Conversation.Turn plain = sampled("x", List.of(
                new Conversation.Token("yo", false, null, List.of((int) 'y'), -1.0),
                new Conversation.Token("?", false, null, List.of((int) 'o'), -2.0)));
        TokenizedTurns.Turns turns = tokenizer.tokenize(conversation(said("user", "q"), plain), "t").orElseThrow();
        int[] ids = turns.tokenIds();
        assertEquals(CharTokenizer.id('y'), ids[turns.targets()[0]], "bytes win over the token's text");
        assertEquals(CharTokenizer.id('o'), ids[turns.targets()[1]]);
        assertArrayEquals(new float[] {-1f, -2f}, turns.logprobs());
    }

    @Test
    void aTokenThatNamesNothingFailsTheJobSayingWhereAndWhatToSend() {
        Conversation.Turn bad = sampled("x", List.of(new Conversation.Token("not-a-token", false, null, List.of(), -1.0)));
        TrainingInputException e = assertThrows(TrainingInputException.class,
                () -> tokenizer.tokenize(conversation(said("user", "q"), bad), "trajectory_groups[0]"));
        assertTrue(e.getMessage().startsWith("trajectory_groups[0].messages_and_choices[1].logprobs.content[0].token "
                + "'not-a-token' names no token of the model"), e.getMessage());
    }

    @Test
    void aPaddedIdTheModelHasARowForTrainsAndOnePastTheRowsDoesNot() {
        TrainingModel small = TrainingFixtures.model(4096);
        int tokens = small.tokenizer().vocabSize();
        TrainingModel padded = new TrainingModel(small.tokenizer(), small.template(), Map.of(), 4096, tokens + 8);
        TrajectoryTokenizer over = new TrajectoryTokenizer(padded, false);
        Conversation.Turn inPadding = sampled("x", List.of(new Conversation.Token("token_id:" + (tokens + 7), true,
                (long) tokens + 7, List.of(), -3.0)));
        TokenizedTurns.Turns turns = over.tokenize(conversation(said("user", "q"), inPadding), "t").orElseThrow();
        assertEquals(tokens + 7, turns.tokenIds()[turns.targets()[0]]);
        assertArrayEquals(new float[] {-3f}, turns.logprobs());

        Conversation.Turn pastRows = sampled("x", List.of(new Conversation.Token("token_id:" + (tokens + 8), true,
                (long) tokens + 8, List.of(), -3.0)));
        assertThrows(TrainingInputException.class,
                () -> over.tokenize(conversation(said("user", "q"), pastRows), "t"));
        assertThrows(TrainingInputException.class,
                () -> tokenizer.tokenize(conversation(said("user", "q"), inPadding), "t"),
                "without padding the same id names no row");
    }

    @Test
    void conversationsLongerThanTheContextAreCutWithTheirTargets() {
        TokenizedTurns.Turns turns = new TrajectoryTokenizer(TrainingFixtures.model(30), false)
                .tokenize(conversation(said("user", "hi"), choice("abcdefghij", true)), "t").orElseThrow();
        assertEquals(30, turns.tokenIds().length);
        assertTrue(turns.truncated());
        assertTrue(turns.targets()[turns.targets().length - 1] < 30);
    }
}

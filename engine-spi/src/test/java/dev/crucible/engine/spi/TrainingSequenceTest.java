package dev.crucible.engine.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TrainingSequenceTest {

    @Test
    void teacherForcingScoresTheSequencesOwnTokens() {
        TrainingSequence s = new TrainingSequence(new int[] {5, 6, 7, 8}, new int[] {2, 3});

        assertArrayEquals(new int[] {7, 8}, s.targetTokens());
        assertEquals(8, s.targetToken(1));
    }

    @Test
    void predictingScoresTheGivenNextTokenAtEveryPosition() {
        TrainingSequence s = TrainingSequence.predicting(new int[] {5, 6, 7}, new int[] {0, 9, 4});

        assertArrayEquals(new int[] {5, 6, 7, 4}, s.tokenIds(), "the last next token closes the sequence");
        assertArrayEquals(new int[] {1, 2, 3}, s.targets(), "position i is scored from the logits after it");
        assertArrayEquals(new int[] {0, 9, 4}, s.targetTokens(), "not the shifted input");
        assertNotEquals(new TrainingSequence(s.tokenIds(), s.targets()), s, "the scored tokens are part of equality");
    }

    @Test
    void predictingNeedsOneNextTokenPerInputToken() {
        assertThrows(IllegalArgumentException.class, () -> TrainingSequence.predicting(new int[] {1, 2}, new int[] {3}));
        assertThrows(IllegalArgumentException.class, () -> TrainingSequence.predicting(new int[0], new int[0]));
        assertThrows(IllegalArgumentException.class,
                () -> new TrainingSequence(new int[] {1, 2, 3}, new int[] {1, 2}, new int[] {4}));
    }

    @Test
    void copiesItsArrays() {
        int[] next = {3, 4};
        TrainingSequence s = TrainingSequence.predicting(new int[] {1, 2}, next);
        next[0] = 99;
        s.targetTokens()[1] = 99;

        assertArrayEquals(new int[] {3, 4}, s.targetTokens());
    }
}

package dev.crucible.domain.job;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertInvalid;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SftConfigTest {

    private static SftConfig resolved(Map<String, Object> config) {
        return value(SftConfig.resolve(config));
    }

    @Test
    void emptyConfigIsAutoBatchDefaultRateAllTurns() {
        assertEquals(new SftConfig(Optional.empty(), List.of(5e-5), false), resolved(Map.of()));
        assertEquals(new SftConfig(Optional.empty(), List.of(5e-5), false), resolved(null));
    }

    @Test
    void batchSizeAutoMeansEmpty() {
        assertEquals(Optional.empty(), resolved(Map.of("batch_size", "auto")).batchSize());
    }

    @Test
    void batchSizeIntegerIsKept() {
        assertEquals(Optional.of(8), resolved(Map.of("batch_size", 8)).batchSize());
        assertEquals(Optional.of(1), resolved(Map.of("batch_size", 1)).batchSize());
        assertEquals(Optional.of(4096), resolved(Map.of("batch_size", 4096)).batchSize());
    }

    @Test
    void batchSizeAbove4096IsRefused() {
        assertInvalid(SftConfig.resolve(Map.of("batch_size", 4097)), "config.batch_size",
                "config.batch_size must be <= 4096, got 4097");
    }

    @Test
    void batchSizeBelow1IsRefused() {
        assertInvalid(SftConfig.resolve(Map.of("batch_size", 0)), "config.batch_size",
                "config.batch_size must be >= 1, got 0");
    }

    @Test
    void batchSizeOtherStringsAndFractionsAreRefused() {
        assertInvalid(SftConfig.resolve(Map.of("batch_size", "big")), "config.batch_size",
                "config.batch_size must be an integer, got a string");
        assertInvalid(SftConfig.resolve(Map.of("batch_size", 2.5)), "config.batch_size",
                "config.batch_size must be an integer, got the number 2.5");
    }

    @Test
    void learningRateNumberIsTheOnlyRate() {
        assertEquals(List.of(1e-4), resolved(Map.of("learning_rate", 1e-4)).learningRates());
    }

    @Test
    void learningRateListGivesOneRatePerBatch() {
        assertEquals(List.of(1e-4, 2e-4, 3.0), resolved(Map.of("learning_rate", List.of(1e-4, 2e-4, 3))).learningRates());
    }

    @Test
    void emptyLearningRateListIsRefused() {
        assertInvalid(SftConfig.resolve(Map.of("learning_rate", List.of())), "config.learning_rate",
                "config.learning_rate must not be an empty list");
    }

    @Test
    void learningRateListMustHoldPositiveFiniteNumbers() {
        assertInvalid(SftConfig.resolve(Map.of("learning_rate", List.of(1e-4, 0))), "config.learning_rate",
                "config.learning_rate must hold numbers > 0, got the number 0");
        assertInvalid(SftConfig.resolve(Map.of("learning_rate", List.of(-1e-4))), "config.learning_rate",
                "config.learning_rate must hold numbers > 0, got the number -1.0E-4");
        assertInvalid(SftConfig.resolve(Map.of("learning_rate", List.of("fast"))), "config.learning_rate",
                "config.learning_rate must hold numbers > 0, got a string");
        assertInvalid(SftConfig.resolve(Map.of("learning_rate", Arrays.asList(1e-4, null))), "config.learning_rate",
                "config.learning_rate must hold numbers > 0, got null");
        assertInvalid(SftConfig.resolve(Map.of("learning_rate", List.of(Double.NaN))), "config.learning_rate",
                "config.learning_rate must hold numbers > 0, got the number NaN");
        assertInvalid(SftConfig.resolve(Map.of("learning_rate", List.of(Double.POSITIVE_INFINITY))),
                "config.learning_rate", "config.learning_rate must hold numbers > 0, got the number Infinity");
    }

    @Test
    void learningRateNumberMustBePositive() {
        assertInvalid(SftConfig.resolve(Map.of("learning_rate", 0)), "config.learning_rate",
                "config.learning_rate must be > 0, got 0.0");
        assertInvalid(SftConfig.resolve(Map.of("learning_rate", "fast")), "config.learning_rate",
                "config.learning_rate must be a number, got a string");
    }

    @Test
    void aSingleRateAppliesToEveryBatch() {
        SftConfig config = new SftConfig(Optional.empty(), List.of(0.1), false);
        assertEquals(0.1, config.learningRate(0));
        assertEquals(0.1, config.learningRate(7));
    }

    @Test
    void aRateListIsIndexedByBatchAndItsLastRateRepeats() {
        SftConfig config = new SftConfig(Optional.empty(), List.of(0.1, 0.2, 0.3), false);
        assertEquals(0.1, config.learningRate(0));
        assertEquals(0.2, config.learningRate(1));
        assertEquals(0.3, config.learningRate(2));
        assertEquals(0.3, config.learningRate(9));
    }

    @Test
    void assistantTurnsLastTrainsOnlyTheLastTurn() {
        assertTrue(resolved(Map.of("assistant_turns", "last")).lastAssistantTurnOnly());
        assertFalse(resolved(Map.of("assistant_turns", "all")).lastAssistantTurnOnly());
    }

    @Test
    void unknownAssistantTurnsIsRefused() {
        assertInvalid(SftConfig.resolve(Map.of("assistant_turns", "first")), "config.assistant_turns",
                "config.assistant_turns must be one of [all, last], got 'first'");
    }

    @Test
    void constructorRefusesNoRates() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SftConfig(Optional.empty(), List.of(), false));
        assertEquals("learningRates must not be empty", e.getMessage());
    }
}

package dev.crucible.server.wiring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.runtime.generation.PrefillBudget;
import java.time.Duration;
import java.util.OptionalDouble;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The typed settings' own checks: what fails the start, and naming which setting. */
class SettingsRecordsTest {

    private static PrimitiveSettings primitives(String drift) {
        return new PrimitiveSettings(Duration.ofSeconds(30), 1024, 128, 4096, 128, 4096, 256, 64, drift, 4, 16,
                Duration.ofSeconds(15), Duration.ofMillis(250), 100);
    }

    private static InferenceSettings inference(int batch, int stepTokens, double stallFactor) {
        return new InferenceSettings(128, 8192, batch, stepTokens, stallFactor, Duration.ofSeconds(30),
                Duration.ofSeconds(1), 96, 128, true, Duration.ofSeconds(2), 4194304, 100000);
    }

    @Test
    void anUnsetOrBlankDriftIsUncheckedAndANumberIsTheLimit() {
        assertEquals(OptionalDouble.empty(), primitives(null).limits().maxLogprobDrift());
        assertEquals(OptionalDouble.empty(), primitives(" ").limits().maxLogprobDrift());
        assertEquals(OptionalDouble.of(0.25), primitives(" 0.25 ").limits().maxLogprobDrift());
        assertEquals(OptionalDouble.of(0), primitives("0").limits().maxLogprobDrift());
    }

    @Property
    void aNegativeDriftFailsTheStartNamingTheSetting(@ForAll @DoubleRange(min = -1e9, max = -0.01) double drift) {
        var e = assertThrows(IllegalArgumentException.class, () -> primitives(Double.toString(drift)).limits());
        assertTrue(e.getMessage().startsWith("crucible.primitives.max-logprob-drift must be"), e.getMessage());
    }

    @Test
    void aDriftThatIsNoFiniteNumberFailsTheStart() {
        for (String bad : new String[] {"abc", "NaN", "Infinity", "1e999"}) {
            assertThrows(IllegalArgumentException.class, () -> primitives(bad).limits(), bad);
        }
    }

    @Test
    void primitiveLimitsCarryEverySetting() {
        var limits = primitives("").limits();
        assertEquals(Duration.ofSeconds(30), limits.longPoll());
        assertEquals(1024, limits.maxDatums());
        assertEquals(64, limits.maxOperationsInFlight());
    }

    @Test
    void aPositiveStepBudgetIsFixedAndZeroIsPaced() {
        assertEquals(PrefillBudget.fixed(512), inference(64, 512, 3).prefillBudget());
        assertEquals(PrefillBudget.paced(3), inference(64, 0, 3).prefillBudget());
    }

    @Property
    void aNegativeStepBudgetFailsTheStart(@ForAll @IntRange(min = Integer.MIN_VALUE, max = -1) int stepTokens) {
        var e = assertThrows(IllegalArgumentException.class, () -> inference(64, stepTokens, 3).prefillBudget());
        assertTrue(e.getMessage().startsWith("crucible.inference.prefill-step-tokens"), e.getMessage());
    }

    @Property
    void aPaceOfAtMostOneStepFailsTheStart(@ForAll @DoubleRange(min = -10, max = 1) double stallFactor) {
        var e = assertThrows(IllegalArgumentException.class, () -> inference(64, 0, stallFactor).prefillBudget());
        assertTrue(e.getMessage().startsWith("crucible.inference.prefill-stall-factor"), e.getMessage());
    }

    @Property
    void aBatchOfNoSequenceFailsTheStart(@ForAll @IntRange(min = Integer.MIN_VALUE, max = 0) int batch) {
        var e = assertThrows(IllegalArgumentException.class, () -> inference(batch, 0, 3).batchSequences());
        assertEquals("crucible.inference.max-batch-sequences must be at least 1, got " + batch, e.getMessage());
        assertEquals(4, inference(4, 0, 3).batchSequences());
    }

    @Test
    void rewardAndSpecLimitsCarryEverySetting() {
        var reward = new RewardSettings(10, 10000, 8192, 1000, 5, 1, 2, 16).limits();
        assertEquals(10, reward.minExamples());
        assertEquals(2, reward.maxConcurrentFits());
        var spec = new SpecSettings(2000, 10000, 32, 5000000).limits();
        assertEquals(32, spec.maxSchemaDepth());
        assertEquals(5000000, spec.maxCheckWork());
    }
}

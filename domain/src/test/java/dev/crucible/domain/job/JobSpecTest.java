package dev.crucible.domain.job;

import static dev.crucible.domain.trajectory.Trajectories.group;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobSpecTest {

    private static Map<String, Object> withNull(String nullKey, String key, Object value) {
        Map<String, Object> map = new HashMap<>();
        map.put(nullKey, null);
        map.put(key, value);
        return map;
    }

    private static RlConfig rl(Map<String, Object> experimental) {
        return ((Outcome.Done<RlConfig>) RlConfig.resolve(experimental)).value();
    }

    private static SftConfig sft(Map<String, Object> config) {
        return ((Outcome.Done<SftConfig>) SftConfig.resolve(config)).value();
    }

    @Test
    void rlStripsNullsFromTheConfig() {
        JobSpec.Rl spec = new JobSpec.Rl(List.of(group(1)), rl(withNull("epsilon", "learning_rate", 1e-5)));
        assertEquals(rl(Map.of("learning_rate", 1e-5)), spec.config());
    }

    @Test
    void rlCountsTrajectoriesOverAllGroups() {
        assertEquals(5, new JobSpec.Rl(List.of(group(1, 2), group(3), group(4, 5)), RlConfig.defaults())
                .trajectoryCount());
        assertEquals(0, new JobSpec.Rl(List.of(), RlConfig.defaults()).trajectoryCount());
    }

    @Test
    void rlConfigResolvesTheStoredSettings() {
        assertEquals(LossFunction.PPO, new JobSpec.Rl(List.of(), rl(Map.of("ppo", true))).config().lossFunction());
    }

    @Test
    void defaultsAreWhatAnEmptyConfigResolvesTo() {
        assertEquals(rl(Map.of()), RlConfig.defaults());
        assertEquals(sft(Map.of()), SftConfig.defaults());
    }

    @Test
    void rlGroupsAreAnImmutableCopy() {
        List<TrajectoryGroup> groups = new java.util.ArrayList<>(List.of(group(1)));
        JobSpec.Rl spec = new JobSpec.Rl(groups, RlConfig.defaults());
        groups.add(group(2));
        assertEquals(1, spec.trajectoryGroups().size());
    }

    @Test
    void sftStripsNullsFromBothConfigs() {
        JobSpec.Sft spec = new JobSpec.Sft("file:///data/x.jsonl", sft(withNull("batch_size", "learning_rate", 1e-4)),
                withNull("a", "b", 2));
        assertEquals(sft(Map.of("learning_rate", 1e-4)), spec.config());
        assertEquals(Map.of("b", 2), spec.experimentalConfig());
    }

    @Test
    void sftRequiresAUrl() {
        assertThrows(NullPointerException.class, () -> new JobSpec.Sft(null, SftConfig.defaults(), Map.of()));
    }
}

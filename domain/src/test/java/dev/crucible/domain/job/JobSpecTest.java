package dev.crucible.domain.job;

import static dev.crucible.domain.trajectory.Trajectories.group;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

    @Test
    void rlStripsNullsFromTheConfig() {
        JobSpec.Rl spec = new JobSpec.Rl(List.of(group(1)), withNull("epsilon", "learning_rate", 1e-5));
        assertEquals(Map.of("learning_rate", 1e-5), spec.experimentalConfig());
    }

    @Test
    void rlCountsTrajectoriesOverAllGroups() {
        assertEquals(5, new JobSpec.Rl(List.of(group(1, 2), group(3), group(4, 5)), Map.of()).trajectoryCount());
        assertEquals(0, new JobSpec.Rl(List.of(), Map.of()).trajectoryCount());
    }

    @Test
    void rlConfigResolvesTheStoredSettings() {
        assertEquals(LossFunction.PPO, new JobSpec.Rl(List.of(), Map.of("ppo", true)).config().lossFunction());
    }

    @Test
    void rlConfigThatNoLongerResolvesIsABug() {
        JobSpec.Rl spec = new JobSpec.Rl(List.of(), Map.of("learning_rate", "x"));
        IllegalStateException e = assertThrows(IllegalStateException.class, spec::config);
        assertEquals("stored RL config no longer valid: experimental_config.learning_rate must be a number, got a string",
                e.getMessage());
    }

    @Test
    void rlGroupsAreAnImmutableCopy() {
        List<TrajectoryGroup> groups = new java.util.ArrayList<>(List.of(group(1)));
        JobSpec.Rl spec = new JobSpec.Rl(groups, Map.of());
        groups.add(group(2));
        assertEquals(1, spec.trajectoryGroups().size());
    }

    @Test
    void sftStripsNullsFromBothConfigs() {
        JobSpec.Sft spec = new JobSpec.Sft("file:///data/x.jsonl", withNull("batch_size", "learning_rate", 1e-4),
                withNull("a", "b", 2));
        assertEquals(Map.of("learning_rate", 1e-4), spec.config());
        assertEquals(Map.of("b", 2), spec.experimentalConfig());
    }

    @Test
    void sftRequiresAUrl() {
        assertThrows(NullPointerException.class, () -> new JobSpec.Sft(null, Map.of(), Map.of()));
    }
}

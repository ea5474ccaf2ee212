package dev.crucible.application.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TrainingResultTest {

    @Test
    void trainedMetricsAreAnImmutableCopy() {
        Map<String, Double> metrics = new HashMap<>(Map.of("loss", 1.0));
        TrainingResult.Trained trained = new TrainingResult.Trained(1, metrics);
        metrics.put("x", 2.0);
        assertEquals(Map.of("loss", 1.0), trained.metrics());
        assertThrows(UnsupportedOperationException.class, () -> trained.metrics().put("y", 3.0));
    }

    @Test
    void bothResultsRequireTheirContent() {
        assertThrows(NullPointerException.class, () -> new TrainingResult.Trained(1, null));
        assertThrows(NullPointerException.class, () -> new TrainingResult.Failed(null));
    }
}

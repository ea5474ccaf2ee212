package dev.crucible.adapters.http.reward;

import io.micronaut.serde.annotation.Serdeable;
import java.util.List;

/** Scores in the items' order, each the probability in [0, 1] that the answer is good. */
@Serdeable
record RewardScoresView(List<Double> scores) {
}

package dev.crucible.domain.job;

import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * SFT settings from the job's {@code config}.
 *
 * @param batchSize sequences per optimiser step, or empty for "auto"
 * @param learningRates one rate for every batch (a single element) or one per batch
 * @param lastAssistantTurnOnly train only the last assistant turn ({@code assistant_turns: "last"})
 */
public record SftConfig(Optional<Integer> batchSize, List<Double> learningRates, boolean lastAssistantTurnOnly) {

    public static final String PARAM = "config";
    public static final double DEFAULT_LEARNING_RATE = 5e-5;
    public static final int MAX_BATCH_SIZE = 4096;

    public SftConfig {
        learningRates = List.copyOf(learningRates);
        if (learningRates.isEmpty()) {
            throw new IllegalArgumentException("learningRates must not be empty");
        }
    }

    /** The learning rate of batch {@code index} (0-based); a single rate applies to every batch. */
    public double learningRate(int index) {
        return learningRates.get(learningRates.size() == 1 ? 0 : Math.min(index, learningRates.size() - 1));
    }

    /** The defaults: what an empty {@code config} resolves to. */
    public static SftConfig defaults() {
        return resolve(Map.of()).orElseThrow();
    }

    /** Resolves {@code config} (null means all defaults). */
    public static Outcome<SftConfig> resolve(Map<String, Object> config) {
        return JsonReader.read(config == null ? Map.of() : config, PARAM, SftConfig::read);
    }

    /**
     * Reads the client's {@code config} object, as the HTTP adapter does with its reader at {@code config}.
     *
     * @throws dev.crucible.kernel.refusal.RefusalException naming the first wrong field by its path
     */
    public static SftConfig read(JsonReader r) {
        Optional<Integer> batchSize = Optional.empty();
        if ("auto".equals(r.raw("batch_size"))) {
            batchSize = Optional.empty();
        } else if (r.present("batch_size")) {
            Integer size = r.integer("batch_size", null, 1);
            if (size > MAX_BATCH_SIZE) {
                throw r.reject("batch_size", "must be <= " + MAX_BATCH_SIZE + ", got " + size);
            }
            batchSize = Optional.of(size);
        }
        List<Double> rates = new ArrayList<>();
        if (r.raw("learning_rate") instanceof List<?> list) {
            if (list.isEmpty()) {
                throw r.reject("learning_rate", "must not be an empty list");
            }
            for (Object item : list) {
                if (!(item instanceof Number n) || !(n.doubleValue() > 0) || !Double.isFinite(n.doubleValue())) {
                    throw r.reject("learning_rate", "must hold numbers > 0, got " + JsonReader.describe(item));
                }
                rates.add(n.doubleValue());
            }
        } else {
            rates.add(r.positive("learning_rate", DEFAULT_LEARNING_RATE));
        }
        String turns = r.oneOf("assistant_turns", "all", Set.of("all", "last"));
        return new SftConfig(batchSize, rates, turns.equals("last"));
    }
}

package dev.crucible.application.primitives;

import java.util.OptionalLong;

/**
 * The adapter a training run trains, as {@code create_model}'s {@code lora_config} asks: its rank, which parts of the
 * model it adapts, and the seed of its initialisation.
 */
public record LoraSettings(int rank, boolean trainUnembed, boolean trainMlp, boolean trainAttn, OptionalLong seed) {

    public LoraSettings {
        if (rank < 1) {
            throw new IllegalArgumentException("rank must be >= 1, got " + rank);
        }
        if (seed == null) {
            throw new NullPointerException("seed");
        }
    }
}

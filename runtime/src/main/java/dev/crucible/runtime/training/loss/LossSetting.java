package dev.crucible.runtime.training.loss;

import java.util.Objects;

/**
 * One numeric {@code loss_fn_config} setting of a loss function: its wire name, the value a call that leaves it out
 * gets, and the closed range a value must lie in (both ends finite, so infinities and NaN are refused).
 */
record LossSetting(String name, double defaultValue, double min, double max) {

    LossSetting {
        Objects.requireNonNull(name, "name");
        if (!(min <= defaultValue && defaultValue <= max) || !Double.isFinite(min) || !Double.isFinite(max)) {
            throw new IllegalArgumentException("defaultValue of " + name + " must lie in [" + min + ", " + max
                    + "], got " + defaultValue);
        }
    }

    boolean accepts(double value) {
        return value >= min && value <= max;
    }
}

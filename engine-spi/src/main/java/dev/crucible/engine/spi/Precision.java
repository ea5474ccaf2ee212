package dev.crucible.engine.spi;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How a served model's linear weights are computed, asked for per model when it loads
 * ({@link EngineProvider#loadModel(dev.crucible.hf.folder.ModelFolder, Precision)}): at F32, whatever dtype the
 * files hold, or as int4 or int8 weights quantised at load. An engine that cannot run the one asked for refuses with
 * {@link EngineException.Reason#UNSUPPORTED_DTYPE}, so the next engine may serve the model.
 */
public enum Precision {
    F32,
    INT4,
    INT8;

    /** The lower-case name configuration uses: {@code f32}, {@code int4}, {@code int8}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The precision named {@code label} (case and surrounding blanks ignored).
     *
     * @throws IllegalArgumentException naming the value and the known ones
     */
    public static Precision of(String label) {
        String wanted = label.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(p -> p.label().equals(wanted)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("precision must be one of " + Arrays.stream(values())
                        .map(Precision::label).collect(Collectors.joining(", ")) + ", got '" + label + "'"));
    }
}

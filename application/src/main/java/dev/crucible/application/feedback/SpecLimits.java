package dev.crucible.application.feedback;

/**
 * Bounds on annotation specs, the tenant's programs that every annotation's {@code payload.value} is checked
 * against: a spec's {@code field_schema} is refused when stored past the first three, and a check stops past the
 * fourth.
 *
 * @param maxPatternSize the largest {@code pattern} after expanding its repeats
 *     ({@value #MAX_PATTERN_SIZE_SETTING})
 * @param maxSchemaNodes the most JSON values (objects, arrays, scalars) in one {@code field_schema}
 *     ({@value #MAX_SCHEMA_NODES_SETTING})
 * @param maxSchemaDepth the deepest nesting of one {@code field_schema} ({@value #MAX_SCHEMA_DEPTH_SETTING})
 * @param maxCheckWork the most work one check may do, counted twice over: the validator's keyword evaluations, and
 *     the patterns' work (a step per character of a pattern compiled and, per {@code pattern} searched, the pattern's
 *     size times the text's length plus one); each at most this ({@value #MAX_CHECK_WORK_SETTING})
 */
public record SpecLimits(long maxPatternSize, int maxSchemaNodes, int maxSchemaDepth, long maxCheckWork) {

    public static final String MAX_PATTERN_SIZE_SETTING = "crucible.feedback.max-pattern-size";
    public static final String MAX_SCHEMA_NODES_SETTING = "crucible.feedback.max-spec-schema-nodes";
    public static final String MAX_SCHEMA_DEPTH_SETTING = "crucible.feedback.max-spec-schema-depth";
    public static final String MAX_CHECK_WORK_SETTING = "crucible.feedback.max-spec-check-work";

    /** The defaults, which {@code application.yml} repeats. */
    public static final SpecLimits DEFAULTS = new SpecLimits(2_000, 10_000, 32, 5_000_000);

    public SpecLimits {
        positive(maxPatternSize, MAX_PATTERN_SIZE_SETTING);
        positive(maxSchemaNodes, MAX_SCHEMA_NODES_SETTING);
        positive(maxSchemaDepth, MAX_SCHEMA_DEPTH_SETTING);
        positive(maxCheckWork, MAX_CHECK_WORK_SETTING);
    }

    private static void positive(long value, String setting) {
        if (value < 1) {
            throw new IllegalArgumentException(setting + " must be positive, got " + value);
        }
    }
}

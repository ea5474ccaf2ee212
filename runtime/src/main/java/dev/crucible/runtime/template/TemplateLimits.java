package dev.crucible.runtime.template;

import java.time.Duration;
import java.util.Objects;

/**
 * The bounds a template a request brings is compiled and rendered under: its time (compile and render together), the
 * longest string it may make (its output and every intermediate string: a concatenation, a filter's or a method's
 * result) and the most items of any list or dict it makes (a {@code range}, a literal, a filter's result). Past a
 * bound the render is refused with param {@code chat_template}, naming the setting that sets it.
 *
 * @param time         the longest compile and render together; positive
 * @param maxChars     the longest string, in characters; at least 1
 * @param maxItems     the most items of a list or dict; at least 1
 * @param charsSetting the name of the setting behind {@code maxChars}, quoted in refusals; never null
 * @param itemsSetting the name of the setting behind {@code maxItems}, quoted in refusals; never null
 */
public record TemplateLimits(Duration time, long maxChars, int maxItems, String charsSetting, String itemsSetting) {

    /** jinja2's sandbox refuses a {@code range} longer than this ({@code MAX_RANGE}); no template may go past it. */
    public static final int MAX_RANGE = 100_000;

    /** Rejects a bound that is not positive. */
    public TemplateLimits {
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(charsSetting, "charsSetting");
        Objects.requireNonNull(itemsSetting, "itemsSetting");
        if (time.isNegative() || time.isZero() || maxChars < 1 || maxItems < 1) {
            throw new IllegalArgumentException("template limits must be positive, got time=" + time + ", maxChars="
                    + maxChars + ", maxItems=" + maxItems);
        }
    }

    /** Bounds whose refusals name no setting: for tests and callers without configuration. */
    public static TemplateLimits of(Duration time, long maxChars, int maxItems) {
        return new TemplateLimits(time, maxChars, maxItems, "the server's bound", "the server's bound");
    }
}

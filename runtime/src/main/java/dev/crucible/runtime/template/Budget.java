package dev.crucible.runtime.template;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;

/**
 * What one compile or render of a template may still spend: a deadline, checked at every node, loop iteration, filter,
 * method call and property lookup (and every few thousand characters a compile's pattern reads), and the bounds on
 * each string and list it makes. Past any of them it throws {@link TemplateStopped}, so the work ends there. Confined
 * to the thread that compiles or renders.
 */
final class Budget {

    /** No deadline and no bounds but jinja2's own range limit: a model's template. */
    static final Budget NONE = new Budget(null, null, Long.MAX_VALUE, TemplateLimits.MAX_RANGE, "", "");

    /** The time bound a refusal names: the whole bound, even when only what is left of it remains. */
    private final Duration limit;
    private final long deadline;
    private final long maxChars;
    private final int maxItems;
    private final String charsSetting;
    private final String itemsSetting;

    private Budget(Duration limit, Duration left, long maxChars, int maxItems, String charsSetting,
            String itemsSetting) {
        this.limit = limit;
        this.deadline = left == null ? 0 : System.nanoTime() + left.toNanos();
        this.maxChars = maxChars;
        this.maxItems = Math.min(maxItems, TemplateLimits.MAX_RANGE);
        this.charsSetting = charsSetting;
        this.itemsSetting = itemsSetting;
    }

    /**
     * A budget of {@code left} from now (what is left of {@code limit}, which its refusal names), with the limits'
     * bounds on strings and lists.
     */
    static Budget of(TemplateLimits limits, Duration limit, Duration left) {
        return new Budget(limit, left, limits.maxChars(), limits.maxItems(), limits.charsSetting(),
                limits.itemsSetting());
    }

    /** A budget of {@code left} from now (of {@code limit}), with no bounds on strings and lists but jinja2's range. */
    static Budget timed(Duration limit, Duration left) {
        return new Budget(limit, left, Long.MAX_VALUE, TemplateLimits.MAX_RANGE, "", "");
    }

    /** The budget of the render on this thread: the current interpreter's, or {@link #NONE} outside a render. */
    static Budget current() {
        return JinjavaInterpreter.getCurrentMaybe().map(Budget::of).orElse(NONE);
    }

    static Budget of(JinjavaInterpreter interpreter) {
        return interpreter instanceof PythonicInterpreter pythonic ? pythonic.budget() : NONE;
    }

    long maxChars() {
        return maxChars;
    }

    int maxItems() {
        return maxItems;
    }

    /** Stops the work once the deadline has passed. */
    void tick() {
        if (limit != null && System.nanoTime() - deadline > 0) {
            throw new TemplateStopped(timedOut(limit));
        }
    }

    /** The refusal of a template that ran past {@code limit}. */
    static Refusal timedOut(Duration limit) {
        return Refusal.invalid("chat_template", "The chat template took longer than " + limit.toMillis()
                + " ms to render, the most this server allows.");
    }

    /** {@code length} characters are about to be made: stops the work past the bound on strings. */
    void chars(long length) {
        tick();
        if (length > maxChars) {
            throw new TemplateStopped(tooLong());
        }
    }

    /**
     * The refusal of a string or an output past the bound: param {@code messages}, as every render failure of
     * Jinjava's, since the messages' size counts as much as the template's code.
     */
    Refusal tooLong() {
        return Refusal.invalid("messages", "chat template failed to render: it made a string longer than " + maxChars
                + " characters, the most this server allows (" + charsSetting + ").");
    }

    /** {@code count} items are about to be made: stops the work past the bound on lists and dicts. */
    void items(long count) {
        tick();
        if (count > maxItems) {
            throw new TemplateStopped(tooMany());
        }
    }

    /** The refusal of a list or dict past the bound. */
    Refusal tooMany() {
        return Refusal.invalid("messages", "chat template failed to render: it made a list or dict of more than "
                + maxItems + " items, the most this server allows (" + itemsSetting + ").");
    }

    /** Checks a value a filter, method or function made against the bounds, and gives it back. */
    Object checked(Object value) {
        switch (value) {
            case CharSequence s -> chars(s.length());
            case Collection<?> c -> items(c.size());
            case Map<?, ?> m -> items(m.size());
            case null, default -> tick();
        }
        return value;
    }
}

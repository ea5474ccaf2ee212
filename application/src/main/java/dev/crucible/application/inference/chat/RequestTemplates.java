package dev.crucible.application.inference.chat;

import dev.crucible.runtime.template.TemplateLimits;
import java.time.Duration;
import java.util.Objects;

/**
 * Whether a chat request may bring its own {@code chat_template}, and the bounds it runs under: a request template is
 * caller-controlled code, so it renders in the same sandboxed Jinja as the model's own (no Java reachable, no nested
 * interpretation, bounded macro recursion), with its compile and render time, every string it makes (its output
 * included) and every list it makes bounded too.
 *
 * @param trusted     whether request templates are rendered; when false they are refused with a message naming
 *                    {@link #SETTING}
 * @param renderLimit the longest a request template may take to compile and render, together
 * @param maxChars    the longest string, in characters, a request template may make: its prompt or any string on the
 *                    way ({@link #MAX_CHARS_SETTING})
 * @param maxItems    the most items of any list or dict a request template may make ({@link #MAX_ITEMS_SETTING})
 */
public record RequestTemplates(boolean trusted, Duration renderLimit, long maxChars, int maxItems) {

    /** The server setting that refuses request templates, as the refusal names it. */
    public static final String SETTING = "crucible.inference.trust-request-chat-template";
    /** The server setting behind {@link #maxChars}, as a refusal names it. */
    public static final String MAX_CHARS_SETTING = "crucible.inference.request-chat-template-max-chars";
    /** The server setting behind {@link #maxItems}, as a refusal names it. */
    public static final String MAX_ITEMS_SETTING = "crucible.inference.request-chat-template-max-items";

    /** Trusted, compiled and rendered within 2 seconds, strings of at most 4 Mi characters, lists of 100,000 items. */
    public static final RequestTemplates DEFAULTS = new RequestTemplates(true, Duration.ofSeconds(2), 4L << 20,
            TemplateLimits.MAX_RANGE);

    /** Rejects a non-positive time or size bound. */
    public RequestTemplates {
        Objects.requireNonNull(renderLimit, "renderLimit");
        if (renderLimit.isNegative() || renderLimit.isZero() || maxChars < 1 || maxItems < 1) {
            throw new IllegalArgumentException("request template bounds must be positive, got renderLimit="
                    + renderLimit + ", maxChars=" + maxChars + ", maxItems=" + maxItems);
        }
    }

    /** The bounds as the template runtime takes them, naming their settings. */
    TemplateLimits limits() {
        return new TemplateLimits(renderLimit, maxChars, maxItems, MAX_CHARS_SETTING, MAX_ITEMS_SETTING);
    }

    /** The refusal of a request template on a server that does not trust them. */
    static String refusedMessage() {
        return "Chat template is passed with request, but this server does not trust request chat templates ("
                + SETTING + " is false). Refused request with untrusted chat template.";
    }
}

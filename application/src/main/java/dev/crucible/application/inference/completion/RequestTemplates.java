package dev.crucible.application.inference.completion;

import java.time.Duration;
import java.util.Objects;

/**
 * Whether a chat request may bring its own {@code chat_template}, and the bounds its render runs under: a request
 * template is caller-controlled code, so it renders in the same sandboxed Jinja as the model's own (no nested
 * interpretation, bounded macro recursion), with its output and its time bounded too.
 *
 * @param trusted        whether request templates are rendered; when false they are refused with a message naming
 *                       {@link #SETTING}
 * @param renderLimit    the longest a request template may take to render
 * @param maxOutputChars the longest prompt, in characters, a request template may render
 */
public record RequestTemplates(boolean trusted, Duration renderLimit, long maxOutputChars) {

    /** The server setting that refuses request templates, as the refusal names it. */
    public static final String SETTING = "crucible.inference.trust-request-chat-template";

    /** Trusted, rendered within 2 seconds into at most 4 Mi characters. */
    public static final RequestTemplates DEFAULTS = new RequestTemplates(true, Duration.ofSeconds(2), 4L << 20);

    /** Rejects a non-positive time or size bound. */
    public RequestTemplates {
        Objects.requireNonNull(renderLimit, "renderLimit");
        if (renderLimit.isNegative() || renderLimit.isZero() || maxOutputChars < 1) {
            throw new IllegalArgumentException("request template bounds must be positive, got renderLimit="
                    + renderLimit + ", maxOutputChars=" + maxOutputChars);
        }
    }

    /** The refusal of a request template on a server that does not trust them. */
    static String refusedMessage() {
        return "Chat template is passed with request, but this server does not trust request chat templates ("
                + SETTING + " is false). Refused request with untrusted chat template.";
    }
}

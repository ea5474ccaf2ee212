package dev.crucible.runtime.template;

import dev.crucible.kernel.refusal.Refusal;

/**
 * Stops a compile or a render that went past one of its bounds or out of the sandbox, carrying the refusal to answer.
 * Jinjava records most exceptions and renders on; {@link PythonicInterpreter} rethrows this one wherever Jinjava would
 * record it, so the work ends instead of spinning on. It carries no stack trace: it is thrown for a tenant's input,
 * possibly many times while a deep render unwinds.
 */
final class TemplateStopped extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Refusal refusal;

    TemplateStopped(Refusal refusal) {
        super(refusal.message(), null, false, false);
        this.refusal = refusal;
    }

    Refusal refusal() {
        return refusal;
    }
}

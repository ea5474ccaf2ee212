package dev.crucible.runtime.template;

import com.hubspot.jinjava.interpret.TemplateError.ErrorType;
import com.hubspot.jinjava.interpret.TemplateError;
import dev.crucible.domain.refusal.Refusal;
import java.util.List;
import java.util.Optional;

/**
 * Turns Jinjava's rendering errors into refusals. Jinjava records an error and renders on where jinja2 raises, so a
 * render counts as failed on its first fatal error; warnings (an undefined property, which jinja2's {@code Undefined}
 * renders as nothing) are not failures. The message of a {@code raise_exception} is the root cause's, since Jinjava's
 * own only says {@code Error invoking function 'raise_exception'}; a {@link TemplateStopped} anywhere in the chain
 * answers with its own refusal. Stateless.
 */
final class RenderErrors {

    private RenderErrors() {
    }

    static Optional<TemplateError> firstFatal(List<TemplateError> errors) {
        return errors.stream().filter(error -> error.getSeverity() == ErrorType.FATAL).findFirst();
    }

    static Refusal refusal(TemplateError error) {
        TemplateStopped stopped = TemplateStopped.in(error.getException());
        if (stopped != null) {
            return stopped.refusal();
        }
        return raised(error.getException())
                .orElseGet(() -> Refusal.invalid("messages", "chat template failed to render: " + error.getMessage()));
    }

    static Refusal refusal(RuntimeException e) {
        TemplateStopped stopped = TemplateStopped.in(e);
        if (stopped != null) {
            return stopped.refusal();
        }
        return raised(e)
                .orElseGet(() -> Refusal.invalid("messages", "chat template failed to render: " + e.getMessage()));
    }

    /** The template's own refusal, when a {@link TemplateRaisedException} is somewhere in the cause chain. */
    private static Optional<Refusal> raised(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof TemplateRaisedException raised) {
                return Optional.of(Refusal.invalid("messages", raised.getMessage()));
            }
        }
        return Optional.empty();
    }
}

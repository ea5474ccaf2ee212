package dev.crucible.runtime.template;

import com.hubspot.jinjava.interpret.TemplateError.ErrorType;
import com.hubspot.jinjava.interpret.TemplateError;
import dev.crucible.kernel.refusal.Refusal;
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
        return refusal(error.getException(), error.getMessage());
    }

    static Refusal refusal(RuntimeException e) {
        return refusal(e, e.getMessage());
    }

    private static Refusal refusal(Throwable failure, String message) {
        return Causes.first(failure, TemplateStopped.class).map(TemplateStopped::refusal)
                .or(() -> Causes.first(failure, TemplateRaisedException.class)
                        .map(raised -> Refusal.invalid("messages", raised.getMessage())))
                .orElseGet(() -> Refusal.invalid("messages", "chat template failed to render: " + message));
    }
}

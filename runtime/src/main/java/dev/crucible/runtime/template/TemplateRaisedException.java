package dev.crucible.runtime.template;

/** Thrown by the template's {@code raise_exception(message)}: the template refuses its input with that message. */
final class TemplateRaisedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    TemplateRaisedException(String message) {
        super(message, null, false, false);
    }
}

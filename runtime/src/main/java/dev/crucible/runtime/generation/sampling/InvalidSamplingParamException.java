package dev.crucible.runtime.generation.sampling;

/** A sampling parameter the caller got wrong, naming the request field; turned into a refusal by the builder. */
final class InvalidSamplingParamException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String param;

    InvalidSamplingParamException(String param, String message) {
        super(message);
        this.param = param;
    }

    String param() {
        return param;
    }
}

package dev.crucible.hf;

/**
 * A model folder or file that Crucible cannot load: an unsupported architecture or dtype, a missing or mistyped key,
 * a corrupt safetensors header. The message names the file and the key, value or tensor at fault.
 *
 * <p>This is an engine-load failure (the operator pointed at a model Crucible cannot read), not a bug: callers report
 * the message as it is. Input/output failures stay {@link java.io.IOException}s.
 */
public final class ModelFormatException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** A failure with a message that names what is wrong. */
    public ModelFormatException(String message) {
        super(message);
    }

    /** A failure with a message that names what is wrong, caused by a lower-level parse error. */
    public ModelFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.crucible.application.primitives;

/**
 * What an accepted operation does. Its name in the operation log is {@link #name()}; a client protocol maps its routes
 * onto these (Tinker's {@code forward_backward}, ART's {@code .../forward_backward} alike).
 */
public enum OperationKind {
    CREATE_MODEL, FORWARD, FORWARD_BACKWARD, OPTIM_STEP, SAVE_WEIGHTS, LOAD_WEIGHTS, SAVE_WEIGHTS_FOR_SAMPLER, SAMPLE,
    UNLOAD_MODEL
}

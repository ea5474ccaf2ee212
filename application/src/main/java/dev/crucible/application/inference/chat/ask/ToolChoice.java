package dev.crucible.application.inference.chat.ask;

import java.util.Objects;

/**
 * A chat request's {@code tool_choice}. {@link Auto} is served on a model with a tool-call parser (see
 * {@code ToolCallFormat}); {@link Required} and {@link Named} constrain generation to a call, on any model.
 */
public sealed interface ToolChoice permits ToolChoice.None, ToolChoice.Auto, ToolChoice.Required, ToolChoice.Named {

    /** {@code "none"}: the model never calls a tool (the default when no tools are sent). */
    record None() implements ToolChoice {
    }

    /** {@code "auto"}: the model may call a tool (the default when tools are sent). */
    record Auto() implements ToolChoice {
    }

    /** {@code "required"}: the model must call some tool. */
    record Required() implements ToolChoice {
    }

    /** {@code {"type": "function", "function": {"name": …}}}: the model must call this tool. */
    record Named(String name) implements ToolChoice {
        public Named {
            Objects.requireNonNull(name, "name");
        }
    }
}

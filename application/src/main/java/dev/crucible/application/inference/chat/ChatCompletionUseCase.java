package dev.crucible.application.inference.chat;

import dev.crucible.application.inference.chat.answer.ChatCompletion;
import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.usage.UsageProject;
import dev.crucible.kernel.invariant.NonNull;
import dev.crucible.kernel.refusal.Outcome;

/**
 * A chat completion as one call: the request is checked, the model resolved, the prompt rendered and generated, and
 * the output parsed for tool calls, all behind this port. Every refusal (a bad field, an unknown model, a prompt too
 * long, an overloaded model) comes back before anything is generated, so a stream is never refused mid-way. A
 * checkpoint's adapter is leased by the call and released when generation ends however it ends (finished, failed,
 * cancelled, or refused): the caller never holds engine resources. Engine failures are exceptions (a 500). A
 * completion that ends (finished, or stopped by its client) has its usage recorded against the command's project;
 * a refused or failed one records nothing.
 */
public interface ChatCompletionUseCase {

    /**
     * @param caller     whose request it is: the owner of trained models and of the request limits
     * @param request    the request as read from the wire
     * @param disconnect where the request hears that its client went away, which stops its generation
     * @param project    the project the completion's tokens count against (a project of the caller's entity)
     */
    record Command(Caller caller, ChatRequest request, ClientDisconnect disconnect, UsageProject project) {

        public Command {
            NonNull.components(Command.class, caller, request, disconnect, project);
            if (!project.team().equals(caller.entity())) {
                throw new IllegalArgumentException("project " + project + " is not of the caller's entity");
            }
        }

        /** A command whose tokens count against the caller's default project. */
        public Command(Caller caller, ChatRequest request, ClientDisconnect disconnect) {
            this(caller, request, disconnect, UsageProject.defaultOf(caller.entity()));
        }
    }

    /** Generates the whole completion and returns it; blocks until generation ends. */
    Outcome<ChatCompletion> complete(Command command);

    /**
     * Starts generating and returns at once; {@code listener} hears {@link ChatStreamListener#onStart} on this
     * thread before this returns, then the rest on the generator's thread. Nothing is told to the listener when the
     * result is a refusal, except possibly {@code onStart}.
     *
     * @return a handle that stops the generation (the listener then hears its aborted end)
     */
    Outcome<RunningChat> stream(Command command, ChatStreamListener listener);
}

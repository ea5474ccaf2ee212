package dev.crucible.application.inference.completion;

import dev.crucible.application.inference.chat.ChatBudget;
import dev.crucible.application.inference.chat.ChatLimits;
import dev.crucible.application.inference.chat.ChatLogprobs;
import dev.crucible.application.inference.chat.ChatRequest;
import dev.crucible.application.inference.chat.ChatTemplating;
import dev.crucible.application.inference.chat.ToolChoice;
import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.domain.refusal.Outcome;
import dev.crucible.domain.refusal.Refusal;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.runtime.generation.GenerationRequest;
import dev.crucible.runtime.generation.RequestOwner;
import dev.crucible.runtime.structured.OutputConstraints;
import dev.crucible.runtime.template.ChatTemplate;
import dev.crucible.runtime.template.ChatTemplateInput;
import dev.crucible.runtime.tools.ToolCalling;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Every check a chat request passes before it may generate, in vLLM's order: the sampling ranges
 * ({@link ChatSamplingRanges}), resolve the model, render its chat template, tokenise, check the request against the
 * model's limits, map sampling parameters and structured outputs.
 * Holds nothing of the engine: the adapter is leased only when generation starts ({@link ChatLaunch}). Thread-safe.
 */
final class ChatPreparation {

    static final String NO_TEMPLATE = "As of transformers v4.44, default chat template is no longer allowed, so you "
            + "must provide a chat template if the tokenizer does not define one.";
    /** How many compiled structured-output constraints are kept for reuse. */
    static final int CACHED_CONSTRAINTS = 32;

    private final ChatModelResolver resolver;
    private final OutputConstraints constraints = new OutputConstraints(CACHED_CONSTRAINTS);
    private final String jsonWhitespace;

    /** @param jsonWhitespace what JSON constraints allow between tokens unless a request sets its own pattern */
    ChatPreparation(ChatModelResolver resolver, String jsonWhitespace) {
        this.resolver = resolver;
        this.jsonWhitespace = jsonWhitespace;
    }

    /**
     * Runs every check and builds the generation request, owned by the caller's entity and key. The sampling ranges
     * come first, as vLLM checks them before it looks at the model.
     */
    Outcome<PreparedChat> prepare(Caller caller, ChatRequest asked) {
        long arrived = System.nanoTime();
        RequestOwner owner = new RequestOwner(caller.entity().value(), caller.keyId().toString());
        return ChatSamplingRanges.check(asked)
                .then(checked -> resolver.resolve(caller, asked.model()))
                .then(resolved -> prepare(resolved, resolved.trained() ? trainable(asked) : asked, owner, arrived));
    }

    /**
     * A request for a trained model returns what training needs even when not asked, as ART's own server does:
     * the sampled tokens' logprobs written {@code token_id:N}, and the token ids.
     */
    static ChatRequest trainable(ChatRequest request) {
        ChatLogprobs asked = request.logprobs();
        ChatLogprobs logprobs = new ChatLogprobs(true, asked.topLogprobs(), asked.promptLogprobs(), Optional.of(true),
                Optional.of(true));
        return new ChatRequest(request.model(), request.messages(), request.sampling(), request.stopping(), logprobs,
                request.streaming(), request.templating(), request.tools(), request.output(), request.serving());
    }

    private Outcome<PreparedChat> prepare(ChatModelResolver.Resolved resolved, ChatRequest request,
            RequestOwner owner, long arrived) {
        if (request.tools().toolChoice() instanceof ToolChoice.Auto && resolved.base().toolCallFormat().isEmpty()) {
            // vLLM's renderer without a tool-call parser; Crucible has none for this model's format.
            return Outcome.refused(Refusal.invalid("tool_choice",
                    "\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set"));
        }
        return render(resolved.base(), request)
                .then(prompt -> tokens(resolved.base(), request, prompt))
                .then(ids -> ChatLimits.of(resolved.base().runner().vocabSize(), resolved.base().maxModelLen())
                        .check(request, ids.length, resolved.base().generation().maxNewTokens())
                        .then(budget -> build(resolved, request, ids, budget, owner, arrived)));
    }

    private static Outcome<String> render(ServedModel model, ChatRequest request) {
        if (model.chatTemplate().isEmpty()) {
            return Outcome.refused(Refusal.invalid("chat_template", NO_TEMPLATE));
        }
        ChatTemplating t = request.templating();
        Map<String, Object> kwargs = new LinkedHashMap<>(t.chatTemplateKwargs());
        t.reasoningEffort().ifPresent(effort -> {
            kwargs.put("reasoning_effort", effort);
            kwargs.putIfAbsent("enable_thinking", !effort.equals("none"));
        });
        ChatTemplate template = model.chatTemplate().get();
        return template.render(new ChatTemplateInput(request.messages(), request.tools().tools().orElse(null),
                t.documents().orElse(null), t.addGenerationPrompt(), t.continueFinalMessage(), model.specialTokens(),
                kwargs));
    }

    private static Outcome<int[]> tokens(ServedModel model, ChatRequest request, String prompt) {
        return Outcome.done(model.tokenizer().encode(prompt, request.templating().addSpecialTokens()));
    }

    private Outcome<PreparedChat> build(ChatModelResolver.Resolved resolved, ChatRequest request, int[] ids,
            ChatBudget budget, RequestOwner owner, long arrived) {
        // truncate_prompt_tokens keeps the last tokens of the prompt.
        int[] kept = budget.promptTokens() < ids.length
                ? Arrays.copyOfRange(ids, ids.length - budget.promptTokens(), ids.length) : ids;
        ServedModel model = resolved.base();
        int priority = (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, request.serving().priority()));
        return ChatSamplingMapper.map(request, budget, model.generation(), model.tokenizer()).then(params ->
                StructuredOutputMapper.map(request, constraints, jsonWhitespace).map(constraint ->
                        // the adapter is leased when generation starts, not here: see ChatLaunch
                        new PreparedChat(resolved, request, new GenerationRequest(kept, params, priority, null,
                                constraint, owner, request.serving().cacheSalt()), toolCalling(model, request),
                                arrived)));
    }

    /**
     * How the output becomes tool calls. Under {@code tool_choice: "auto"} with tools the model's own format is
     * parsed, as vLLM's {@code --enable-auto-tool-choice} does; "none" never parses. A named choice or
     * {@code "required"} constrained generation to vLLM's tool-choice schema ({@link ToolChoiceSchemas}), so the
     * output is read as that schema's calls, on any model.
     */
    private static Optional<ToolCalling> toolCalling(ServedModel model, ChatRequest request) {
        if (request.tools().tools().isEmpty()) {
            return Optional.empty();
        }
        boolean parallel = request.tools().parallelToolCalls();
        return switch (request.tools().toolChoice()) {
            case ToolChoice.None none -> Optional.empty();
            case ToolChoice.Auto auto -> model.toolCallFormat().map(f -> ToolCalling.auto(f, parallel));
            case ToolChoice.Named named -> Optional.of(new ToolCalling(new ToolCalling.Named(named.name()), parallel));
            case ToolChoice.Required required -> Optional.of(new ToolCalling(new ToolCalling.Required(), parallel));
        };
    }
}

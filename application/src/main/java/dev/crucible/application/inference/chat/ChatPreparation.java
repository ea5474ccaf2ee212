package dev.crucible.application.inference.chat;

import dev.crucible.application.inference.chat.ask.ChatLogprobs;
import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.application.inference.chat.ask.ChatTemplating;
import dev.crucible.application.inference.chat.ask.ToolChoice;
import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.application.inference.serving.ServedModelLoader;
import dev.crucible.application.model.SchedulingPolicy;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.runtime.structured.LruMap;
import dev.crucible.runtime.generation.GenerationRequest;
import dev.crucible.runtime.generation.RequestOwner;
import dev.crucible.runtime.structured.ConstraintBudgets;
import dev.crucible.runtime.structured.OutputConstraints;
import dev.crucible.runtime.template.ChatTemplate;
import dev.crucible.runtime.template.ChatTemplateInput;
import dev.crucible.runtime.tools.ToolCalling;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Every check a chat request passes before it may generate, in vLLM's order: the sampling ranges
 * ({@link ChatSamplingRanges}), resolve the model, render its chat template (or the request's own, under
 * {@link RequestTemplates}), tokenise, check the request against the
 * model's limits, map sampling parameters and structured outputs. A non-zero {@code priority} needs a model
 * scheduled by priority; {@code n} is at most the model's batch ({@code crucible.inference.max-batch-sequences}).
 * Holds nothing of the engine: the adapter is leased only when generation starts ({@link ChatLaunch}). Thread-safe.
 */
final class ChatPreparation {

    static final String NO_TEMPLATE = "As of transformers v4.44, default chat template is no longer allowed, so you "
            + "must provide a chat template if the tokenizer does not define one.";
    /** How many compiled structured-output constraints are kept for reuse. */
    static final int CACHED_CONSTRAINTS = 32;
    /** How many compiled request templates are kept for reuse (clients resend the same one). */
    static final int CACHED_TEMPLATES = 16;

    private final ChatModelResolver resolver;
    private final OutputConstraints constraints;
    private final String jsonWhitespace;
    private final RequestTemplates requestTemplates;
    private final Map<String, ChatTemplate> compiledTemplates = Collections.synchronizedMap(
            new LruMap<>(CACHED_TEMPLATES));

    /**
     * @param jsonWhitespace   what JSON constraints allow between tokens unless a request sets its own pattern
     * @param requestTemplates whether and how a request's own {@code chat_template} is rendered
     * @param budgets          what compiling and enforcing a request's structured outputs may spend
     */
    ChatPreparation(ChatModelResolver resolver, String jsonWhitespace, RequestTemplates requestTemplates,
            ConstraintBudgets budgets) {
        this.resolver = resolver;
        this.constraints = new OutputConstraints(CACHED_CONSTRAINTS, budgets);
        this.jsonWhitespace = jsonWhitespace;
        this.requestTemplates = requestTemplates;
    }

    /** The preparation {@code settings} ask for: JSON whitespace, request templates, structured outputs' budgets. */
    static ChatPreparation of(ChatModelResolver resolver, ChatSettings settings) {
        return new ChatPreparation(Objects.requireNonNull(resolver, "resolver"),
                settings.disableAnyWhitespace() ? "" : OutputConstraints.ANY_WHITESPACE, settings.requestTemplates(),
                settings.structuredOutputs());
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
     * As {@link #prepare(Caller, ChatRequest)} for a request the server makes itself on {@code model}, a served
     * base model, on behalf of {@code owner} rather than a caller ({@link ChatWarmUpService}).
     */
    Outcome<PreparedChat> prepare(ServedModel model, ChatRequest asked, RequestOwner owner) {
        long arrived = System.nanoTime();
        return ChatSamplingRanges.check(asked).then(checked -> prepare(new ChatModelResolver.Resolved(model,
                model.name(), 0, false, Optional.empty()), asked, owner, arrived));
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
        int batch = resolved.base().generator().maxBatchSequences();
        if (request.sampling().n() > batch) {
            // each of the n sequences (beams, under use_beam_search) holds its own cache and all run at once: past
            // the batch a request would hold more than the engine ever decodes together, so it is refused, not run
            return Outcome.refused(Refusal.invalid("n", "n must be at most " + batch + ", got "
                    + request.sampling().n() + ": the model decodes at most " + batch + " sequences together ("
                    + ServedModelLoader.MAX_BATCH_SEQUENCES_SETTING + ")."));
        }
        long priority = request.serving().priority();
        if (priority != 0 && resolved.base().scheduling() == SchedulingPolicy.FCFS) {
            // vLLM's message where the served model is scheduled first come, first served
            return Outcome.refused(Refusal.invalid("priority",
                    "Got priority " + priority + " but Priority scheduling is not enabled."));
        }
        if (request.tools().toolChoice() instanceof ToolChoice.Auto && resolved.base().toolCallFormat().isEmpty()) {
            // vLLM's renderer answers 400 without a tool-call parser; Crucible has none for this model's format, and
            // names no vLLM flag it does not have
            return Outcome.refused(Refusal.invalid("tool_choice", "\"auto\" tool choice needs a tool-call parser for "
                    + "the model's format, and Crucible has none for model '" + resolved.base().name() + "' (it parses "
                    + "hermes <tool_call> and Llama 3 JSON tool calls). Use tool_choice \"required\" or a named "
                    + "function, which constrain the output to the tool schema on any model."));
        }
        return render(resolved.base(), request)
                .then(prompt -> tokens(resolved.base(), request, prompt))
                .then(ids -> ChatLimits.of(resolved.base().runner().vocabSize(), resolved.base().maxModelLen())
                        .check(request, ids.length, resolved.base().generation().maxNewTokens())
                        .then(budget -> build(resolved, request, ids, budget, owner, arrived)));
    }

    /**
     * Renders the prompt with the request's own template when it brings one (if this server trusts them; its compile
     * and render together bounded in time, its strings and lists in size), else with the model's, which must then
     * exist.
     */
    private Outcome<String> render(ServedModel model, ChatRequest request) {
        Optional<String> asked = request.templating().chatTemplate();
        if (asked.isPresent()) {
            if (!requestTemplates.trusted()) {
                return Outcome.refused(Refusal.invalid("chat_template", RequestTemplates.refusedMessage()));
            }
            long start = System.nanoTime();
            return requestTemplate(asked.get()).then(template -> template.render(input(model, request),
                    requestTemplates.renderLimit(), Duration.ofNanos(System.nanoTime() - start)));
        }
        if (model.chatTemplate().isEmpty()) {
            return Outcome.refused(Refusal.invalid("chat_template", NO_TEMPLATE));
        }
        return model.chatTemplate().get().render(input(model, request));
    }

    private Outcome<ChatTemplate> requestTemplate(String source) {
        ChatTemplate cached = compiledTemplates.get(source);
        if (cached != null) {
            return Outcome.done(cached);
        }
        return ChatTemplate.compileBounded(source, requestTemplates.limits()).map(template -> {
            compiledTemplates.put(source, template);
            return template;
        });
    }

    private static ChatTemplateInput input(ServedModel model, ChatRequest request) {
        ChatTemplating t = request.templating();
        Map<String, Object> kwargs = new LinkedHashMap<>(t.chatTemplateKwargs());
        t.reasoningEffort().ifPresent(effort -> {
            kwargs.put("reasoning_effort", effort);
            kwargs.putIfAbsent("enable_thinking", !effort.equals("none"));
        });
        return new ChatTemplateInput(request.messages(), request.tools().tools().orElse(null),
                t.documents().orElse(null), t.addGenerationPrompt(), t.continueFinalMessage(), model.specialTokens(),
                kwargs);
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

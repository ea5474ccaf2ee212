package dev.crucible.application.inference.completion;

import dev.crucible.application.inference.chat.ChatBudget;
import dev.crucible.application.inference.chat.ChatLimits;
import dev.crucible.application.inference.chat.ChatLogprobs;
import dev.crucible.application.inference.chat.ChatRequest;
import dev.crucible.application.inference.chat.ChatTemplating;
import dev.crucible.application.inference.chat.ToolChoice;
import dev.crucible.application.inference.serving.AdapterCache;
import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.domain.refusal.Outcome;
import dev.crucible.domain.refusal.Refusal;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.runtime.generation.GenerationDelta;
import dev.crucible.runtime.generation.GenerationHandle;
import dev.crucible.runtime.generation.GenerationListener;
import dev.crucible.runtime.generation.GenerationRequest;
import dev.crucible.runtime.generation.GenerationResult;
import dev.crucible.runtime.generation.Generator;
import dev.crucible.runtime.generation.RequestOwner;
import dev.crucible.runtime.structured.OutputConstraints;
import dev.crucible.runtime.template.ChatTemplate;
import dev.crucible.runtime.template.ChatTemplateInput;
import dev.crucible.runtime.tools.ToolCalling;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Chat completions: resolve the model, render its chat template, tokenise, check the request against the model's
 * limits, map sampling parameters, then generate (blocking, or streaming through a listener). Every check runs
 * before generation starts, so a streaming request is refused with a plain 4xx, never mid-stream. Each key and each
 * entity may have at most its {@link RequestLimits} of requests from submission to their end; one more, or one that
 * finds the model's waiting queue full, is refused as overloaded.
 */
public final class ChatCompletionService {

    static final String NO_TEMPLATE = "As of transformers v4.44, default chat template is no longer allowed, so you "
            + "must provide a chat template if the tokenizer does not define one.";
    /** How many compiled structured-output constraints are kept for reuse. */
    static final int CACHED_CONSTRAINTS = 32;

    private final ChatModelResolver resolver;
    private final AdapterCache adapters;
    private final OutputConstraints constraints = new OutputConstraints(CACHED_CONSTRAINTS);
    private final String jsonWhitespace;
    private final ChatAdmission admission;
    private final ChatObserver observer;

    /** A service whose JSON constraints allow any whitespace between tokens, as vLLM's do by default. */
    public ChatCompletionService(ChatModelResolver resolver, AdapterCache adapters) {
        this(resolver, adapters, false);
    }

    /** A service with the default {@link RequestLimits}. */
    public ChatCompletionService(ChatModelResolver resolver, AdapterCache adapters, boolean disableAnyWhitespace) {
        this(resolver, adapters, disableAnyWhitespace, RequestLimits.DEFAULTS);
    }

    /**
     * @param disableAnyWhitespace vLLM's server-wide {@code --structured-outputs-config.disable_any_whitespace}: JSON
     *                             constraints (schemas, {@code json_object}, forced tool calls) allow no whitespace
     *                             between tokens unless a request sets its own {@code whitespace_pattern}
     * @param limits               the most requests one key and one entity may have in flight or waiting
     */
    public ChatCompletionService(ChatModelResolver resolver, AdapterCache adapters, boolean disableAnyWhitespace,
            RequestLimits limits) {
        this(resolver, adapters, disableAnyWhitespace, limits, ChatObserver.NONE);
    }

    /** As above, telling {@code observer} when each request's first token comes and how it ends. */
    public ChatCompletionService(ChatModelResolver resolver, AdapterCache adapters, boolean disableAnyWhitespace,
            RequestLimits limits, ChatObserver observer) {
        this.observer = Objects.requireNonNull(observer, "observer");
        this.resolver = Objects.requireNonNull(resolver, "resolver");
        this.adapters = Objects.requireNonNull(adapters, "adapters");
        this.jsonWhitespace = disableAnyWhitespace ? "" : OutputConstraints.ANY_WHITESPACE;
        this.admission = new ChatAdmission(Objects.requireNonNull(limits, "limits"));
    }

    /** Runs every check and builds the generation request, owned by the caller's entity and key. */
    public Outcome<PreparedChat> prepare(Caller caller, ChatRequest asked) {
        long arrived = System.nanoTime();
        RequestOwner owner = new RequestOwner(caller.entity().value(), caller.keyId().toString());
        return resolver.resolve(caller, asked.model()).then(resolved -> {
            ChatRequest request = resolved.trained() ? trainable(asked) : asked;
            return prepare(resolved, request, owner, arrived);
        });
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

    /**
     * Starts generating; progress goes to {@code listener} (on the generator's thread). Refused as overloaded when
     * the caller's key or entity has its most requests already, or the model's waiting queue is full. The
     * checkpoint's adapter is leased here, after admission, and released when generation ends however it ends
     * (done, failed, cancelled, refused): a prepared chat that is never streamed holds nothing.
     */
    public Outcome<GenerationHandle> stream(PreparedChat chat, GenerationListener listener) {
        Generator generator = chat.model().base().generator();
        Outcome<ChatAdmission.Ticket> admitted = admission.admit(chat.generation().owner(), generator.retryAfter());
        if (!(admitted instanceof Outcome.Done<ChatAdmission.Ticket>(ChatAdmission.Ticket ticket))) {
            return admitted.map(t -> null);
        }
        Optional<AdapterCache.Lease> lease = Optional.empty();
        Outcome<GenerationHandle> handle;
        try {
            lease = chat.model().adapterFolder().map(folder -> adapters.acquire(chat.model().base(), folder));
            Runnable release = releaser(lease, ticket);
            GenerationRequest request = chat.generation().withAdapter(lease.map(AdapterCache.Lease::adapter).orElse(null));
            String model = chat.model().base().name();
            handle = generator.submit(request, new GenerationListener() {
                private boolean first = true;

                @Override
                public void onDelta(GenerationDelta delta) {
                    if (first) {
                        first = false;
                        observer.firstToken(model, since(chat.arrivedNanos()));
                    }
                    listener.onDelta(delta);
                }

                @Override
                public void onComplete(GenerationResult result) {
                    release.run();
                    observer.finished(model, result.promptTokens(), since(chat.arrivedNanos()),
                            result.sequences().isEmpty() ? "abort"
                                    : result.sequences().getFirst().finish().reason().wireName());
                    listener.onComplete(result);
                }

                @Override
                public void onFailure(RuntimeException failure) {
                    release.run();
                    listener.onFailure(failure);
                }
            });
        } catch (RuntimeException e) {
            releaser(lease, ticket).run();
            throw e;
        }
        if (handle instanceof Outcome.Refused<GenerationHandle>) {
            releaser(lease, ticket).run();
        }
        return handle;
    }

    private static Duration since(long nanos) {
        return Duration.ofNanos(System.nanoTime() - nanos);
    }

    /** Releases the lease and the admission ticket once, whichever end of a generation calls first. */
    private static Runnable releaser(Optional<AdapterCache.Lease> lease, ChatAdmission.Ticket ticket) {
        return () -> {
            lease.ifPresent(AdapterCache.Lease::close);
            ticket.release();
        };
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
                        // the adapter is leased when the chat is streamed, not here: see stream()
                        new PreparedChat(resolved, request, new GenerationRequest(kept, params, priority, null,
                                constraint, owner), toolCalling(model, request), arrived)));
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

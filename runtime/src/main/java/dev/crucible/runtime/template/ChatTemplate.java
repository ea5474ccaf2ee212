package dev.crucible.runtime.template;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.interpret.InterpretException;
import com.hubspot.jinjava.interpret.InvalidArgumentException;
import com.hubspot.jinjava.interpret.InvalidInputException;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.tree.Node;
import dev.crucible.domain.refusal.Outcome;
import dev.crucible.domain.refusal.Refusal;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A model's chat template (the Jinja {@code chat_template} of {@code tokenizer_config.json}), compiled once and
 * rendered into prompts byte for byte as transformers' {@code apply_chat_template(tokenize=False)} renders them with
 * jinja2.
 *
 * <p>Thread-safe and reusable: the parsed template is never changed, and each {@link #render} works in an interpreter
 * of its own. Rendering refuses, as vLLM answers 400: a template's {@code raise_exception(msg)} (reason
 * {@code INVALID}, param {@code messages}, the template's message), any other rendering error (the same, with
 * Jinjava's message), {@code continue_final_message} together with {@code add_generation_prompt} (param
 * {@code continue_final_message}), and a final message that cannot be continued (param {@code messages}).
 *
 * <p>A template a request brings ({@link #compileBounded}) is not trusted: its output is bounded, and
 * {@link #render(ChatTemplateInput, Duration)} bounds its time too. Recursion is bounded for every template.
 */
public final class ChatTemplate {

    static final String BOTH_CONTINUE_AND_PROMPT =
            "Cannot set both `continue_final_message` and `add_generation_prompt` to True.";

    private final Jinjava jinjava;
    private final Node root;

    private ChatTemplate(Jinjava jinjava, Node root) {
        this.jinjava = jinjava;
        this.root = root;
    }

    /**
     * Compiles a template whose {@code strftime_now} reads {@code clock} (in the clock's zone, as Python's naive
     * {@code datetime.now()} reads the local time).
     *
     * @param source the template text, never null
     * @param clock the clock for {@code strftime_now}, never null
     * @return the template, or {@code INVALID} with param {@code chat_template} when the source does not parse
     */
    public static Outcome<ChatTemplate> compile(String source, Clock clock) {
        return compile(source, JinjaEnvironment.create(Objects.requireNonNull(clock, "clock")));
    }

    /**
     * Compiles a template that renders at most {@code maxOutputChars} characters: a longer render is refused (param
     * {@code messages}), as for a template a request brings.
     *
     * @throws IllegalArgumentException for a bound below 1
     */
    public static Outcome<ChatTemplate> compileBounded(String source, long maxOutputChars) {
        if (maxOutputChars < 1) {
            throw new IllegalArgumentException("maxOutputChars must be at least 1, got " + maxOutputChars);
        }
        return compile(source, JinjaEnvironment.create(Clock.systemDefaultZone(), maxOutputChars));
    }

    private static Outcome<ChatTemplate> compile(String source, Jinjava jinjava) {
        Objects.requireNonNull(source, "source");
        JinjavaInterpreter parser = interpreter(jinjava, new Context(jinjava.getGlobalContextCopy()));
        Node root;
        try {
            root = parser.parse(TemplateSource.prepare(source));
        } catch (InterpretException | IllegalArgumentException e) { // IllegalArgument: a malformed string escape
            return Outcome.refused(Refusal.invalid("chat_template", "chat template does not parse: " + e.getMessage()));
        }
        // any parse problem counts, warnings such as "Unclosed token" included: jinja2 raises on all of them
        return parser.getErrorsCopy().stream().findFirst()
                .<Outcome<ChatTemplate>>map(error -> Outcome.refused(Refusal.invalid("chat_template",
                        "chat template does not parse: " + error.getMessage())))
                .orElseGet(() -> Outcome.done(new ChatTemplate(jinjava, root)));
    }

    /** Compiles a template whose {@code strftime_now} reads the system clock in the default time zone. */
    public static Outcome<ChatTemplate> compile(String source) {
        return compile(source, Clock.systemDefaultZone());
    }

    /**
     * Renders the prompt for {@code input}.
     *
     * @param input the variables, never null
     * @return the prompt text, or a refusal as described on the class
     */
    public Outcome<String> render(ChatTemplateInput input) {
        Objects.requireNonNull(input, "input");
        if (input.continueFinalMessage() && input.addGenerationPrompt()) {
            return Outcome.refused(Refusal.invalid("continue_final_message", BOTH_CONTINUE_AND_PROMPT));
        }
        JinjavaConfig config = jinjava.getGlobalConfig();
        JinjavaInterpreter interpreter = interpreter(jinjava,
                new Context(jinjava.getGlobalContextCopy(), input.variables(), config.getDisabled()));
        String rendered;
        try {
            rendered = interpreter.render(root, false);
        } catch (InterpretException | InvalidArgumentException | InvalidInputException | TemplateRaisedException e) {
            // what Jinjava's own renderForResult turns into template errors; anything else is a bug and propagates
            return Outcome.refused(RenderErrors.refusal(e));
        }
        var failure = RenderErrors.firstFatal(interpreter.getErrorsCopy());
        if (failure.isPresent()) {
            return Outcome.refused(RenderErrors.refusal(failure.get()));
        }
        return input.continueFinalMessage() ? FinalMessageCut.cut(rendered, input.messages()) : Outcome.done(rendered);
    }

    /**
     * Renders as {@link #render(ChatTemplateInput)}, on a thread of its own that is interrupted (and stops at the
     * template's next node) once {@code limit} has passed; the render is then refused with param
     * {@code chat_template}.
     *
     * @throws IllegalStateException when the calling thread is interrupted while it waits
     */
    public Outcome<String> render(ChatTemplateInput input, Duration limit) {
        Objects.requireNonNull(input, "input");
        FutureTask<Outcome<String>> task = new FutureTask<>(() -> render(input));
        Thread.ofVirtual().name("crucible-template").start(task);
        try {
            return task.get(limit.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            task.cancel(true);
            return Outcome.refused(Refusal.invalid("chat_template", "The chat template took longer than "
                    + limit.toMillis() + " ms to render, the most this server allows."));
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            task.cancel(true);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while a chat template rendered", e);
        }
    }

    private static JinjavaInterpreter interpreter(Jinjava jinjava, Context context) {
        JinjavaConfig config = jinjava.getGlobalConfig();
        return config.getInterpreterFactory().newInstance(jinjava, context, config);
    }
}

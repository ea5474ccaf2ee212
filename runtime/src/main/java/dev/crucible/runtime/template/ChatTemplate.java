package dev.crucible.runtime.template;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.el.ext.ExtendedParser;
import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.interpret.InterpretException;
import com.hubspot.jinjava.interpret.InvalidArgumentException;
import com.hubspot.jinjava.interpret.InvalidInputException;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.tree.Node;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

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
 * <p>Every template renders in jinja2's sandbox as {@link JinjaEnvironment} builds it: no Java is reachable, and a
 * call outside the sandbox is refused with param {@code chat_template}. A template a request brings
 * ({@link #compileBounded(String, TemplateLimits)}) is not trusted: its compile and its render together run within its
 * time bound, and every string and list it makes within its bounds ({@link TemplateLimits}). Work past a bound is
 * stopped where it stands, on the thread that does it (checked at every node, loop iteration, filter and call), and
 * refused; nothing runs on after the refusal. Recursion is bounded for every template.
 */
public final class ChatTemplate {

    static final String BOTH_CONTINUE_AND_PROMPT =
            "Cannot set both `continue_final_message` and `add_generation_prompt` to True.";

    private final Jinjava jinjava;
    private final Node root;
    private final TemplateLimits limits;

    private ChatTemplate(Jinjava jinjava, Node root, TemplateLimits limits) {
        this.jinjava = jinjava;
        this.root = root;
        this.limits = limits;
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
        return compile(source, JinjaEnvironment.create(Objects.requireNonNull(clock, "clock")), Budget.NONE, null);
    }

    /**
     * Compiles a template that renders at most {@code maxOutputChars} characters, as
     * {@link #compileBounded(String, TemplateLimits)} with a time bound of {@link #DEFAULT_TIME} and jinja2's range
     * limit on lists.
     *
     * @throws IllegalArgumentException for a bound below 1
     */
    public static Outcome<ChatTemplate> compileBounded(String source, long maxOutputChars) {
        if (maxOutputChars < 1) {
            throw new IllegalArgumentException("maxOutputChars must be at least 1, got " + maxOutputChars);
        }
        return compileBounded(source, TemplateLimits.of(DEFAULT_TIME, maxOutputChars, TemplateLimits.MAX_RANGE));
    }

    /** The time bound of {@link #compileBounded(String, long)}. */
    public static final Duration DEFAULT_TIME = Duration.ofSeconds(2);

    /**
     * Compiles a template a request brings: within {@code limits.time()} (a slower compile is stopped and refused with
     * param {@code chat_template}), to render within its limits ({@link #render(ChatTemplateInput)} spends the whole
     * time bound, {@link #render(ChatTemplateInput, Duration)} what the caller has left of it).
     */
    public static Outcome<ChatTemplate> compileBounded(String source, TemplateLimits limits) {
        Objects.requireNonNull(limits, "limits");
        return compile(source, JinjaEnvironment.create(Clock.systemDefaultZone(), limits.maxChars(),
                limits.maxItems()), Budget.of(limits, limits.time(), limits.time()), limits);
    }

    private static Outcome<ChatTemplate> compile(String source, Jinjava jinjava, Budget budget, TemplateLimits limits) {
        Objects.requireNonNull(source, "source");
        if (source.contains(ExtendedParser.INTERPRETER)) {
            return Outcome.refused(Refusal.invalid("chat_template", "chat template does not parse: the name "
                    + ExtendedParser.INTERPRETER + " is reserved"));
        }
        JinjavaInterpreter parser = interpreter(jinjava, new Context(jinjava.getGlobalContextCopy(), null,
                jinjava.getGlobalConfig().getDisabled()));
        Node root;
        try {
            root = parser.parse(TemplateSource.prepare(source, budget));
            budget.tick();
        } catch (TemplateStopped e) {
            return Outcome.refused(e.refusal());
        } catch (InterpretException | IllegalArgumentException | IndexOutOfBoundsException e) {
            // IllegalArgument: a malformed string escape; IndexOutOfBounds: an unbalanced one
            return Outcome.refused(Refusal.invalid("chat_template", "chat template does not parse: " + e.getMessage()));
        } catch (StackOverflowError e) {
            return Outcome.refused(TOO_DEEP);
        }
        // any parse problem counts, warnings such as "Unclosed token" included: jinja2 raises on all of them
        return parser.getErrorsCopy().stream().findFirst()
                .<Outcome<ChatTemplate>>map(error -> Outcome.refused(Refusal.invalid("chat_template",
                        "chat template does not parse: " + error.getMessage())))
                .orElseGet(() -> Outcome.done(new ChatTemplate(jinjava, root, limits)));
    }

    private static final Refusal TOO_DEEP = Refusal.invalid("chat_template",
            "The chat template nests too deeply for this server to compile or render it.");

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
        return render(input, limits == null ? Budget.NONE : Budget.of(limits, limits.time(), limits.time()));
    }

    private Outcome<String> render(ChatTemplateInput input, Budget budget) {
        Objects.requireNonNull(input, "input");
        if (input.continueFinalMessage() && input.addGenerationPrompt()) {
            return Outcome.refused(Refusal.invalid("continue_final_message", BOTH_CONTINUE_AND_PROMPT));
        }
        JinjavaConfig config = jinjava.getGlobalConfig();
        JinjavaInterpreter interpreter = new PythonicInterpreter(jinjava,
                new Context(jinjava.getGlobalContextCopy(), input.variables(), config.getDisabled()), config, budget);
        String rendered;
        try {
            rendered = interpreter.render(root, false);
        } catch (TemplateStopped e) {
            return Outcome.refused(e.refusal());
        } catch (InterpretException | InvalidArgumentException | InvalidInputException | TemplateRaisedException e) {
            // what Jinjava's own renderForResult turns into template errors; anything else is a bug and propagates
            return Outcome.refused(RenderErrors.refusal(e));
        } catch (StackOverflowError e) {
            return Outcome.refused(TOO_DEEP);
        }
        var failure = RenderErrors.firstFatal(interpreter.getErrorsCopy());
        if (failure.isPresent()) {
            return Outcome.refused(RenderErrors.refusal(failure.get()));
        }
        return input.continueFinalMessage() ? FinalMessageCut.cut(rendered, input.messages()) : Outcome.done(rendered);
    }

    /**
     * Renders as {@link #render(ChatTemplateInput)} within {@code limit}: past it the render is stopped where it
     * stands and refused with param {@code chat_template}. It runs on the calling thread, which is free again when
     * this returns, refused or not.
     */
    public Outcome<String> render(ChatTemplateInput input, Duration limit) {
        return render(input, limit, Duration.ZERO);
    }

    /**
     * Renders within what is left of {@code limit} once {@code spent} is taken off it (the time the caller spent
     * compiling, say), as {@link #render(ChatTemplateInput, Duration)}; a refusal names the whole {@code limit}.
     */
    public Outcome<String> render(ChatTemplateInput input, Duration limit, Duration spent) {
        Objects.requireNonNull(limit, "limit");
        Duration left = limit.minus(spent);
        if (left.isNegative() || left.isZero()) {
            return Outcome.refused(Budget.timedOut(limit));
        }
        return render(input, limits == null ? Budget.timed(limit, left) : Budget.of(limits, limit, left));
    }

    private static JinjavaInterpreter interpreter(Jinjava jinjava, Context context) {
        JinjavaConfig config = jinjava.getGlobalConfig();
        return config.getInterpreterFactory().newInstance(jinjava, context, config);
    }
}

package dev.crucible.application.inference.serving;

import dev.crucible.application.model.SchedulingPolicy;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.engine.spi.Capability;
import dev.crucible.engine.spi.EngineProvider;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.Precision;
import dev.crucible.hf.ModelFormatException;
import dev.crucible.hf.tokenizer.Tokenizer;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.runtime.generation.stopping.EndOfSequence;
import dev.crucible.runtime.generation.Generator;
import dev.crucible.runtime.generation.GeneratorOptions;
import dev.crucible.runtime.generation.PrefillBudget;
import dev.crucible.runtime.template.ChatTemplate;
import dev.crucible.runtime.template.ChatTemplateInput;
import dev.crucible.runtime.tools.ToolCallFormat;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Loads a model folder into an engine: runner, hf-format's tokenizer (the same on every engine), compiled chat
 * template, generation defaults; scheduled first come, first served ({@link ServedModel#withScheduling} changes it).
 */
public final class ServedModelLoader {

    /** Prompt tokens one sequence feeds per step, so long prompts do not stall decoding of the others. */
    static final int PREFILL_CHUNK_TOKENS = 512;
    /** Sequences decoded together in one batched forward, unless {@link #MAX_BATCH_SEQUENCES_SETTING} says otherwise. */
    public static final int MAX_BATCH_SEQUENCES = 64;
    /**
     * The setting of the most sequences decoded together, which is also the largest {@code n} a request may ask for
     * (vLLM's {@code --max-num-seqs}).
     */
    public static final String MAX_BATCH_SEQUENCES_SETTING = "crucible.inference.max-batch-sequences";
    /** How long a model's generation loop idles before its runner gives back what the last burst grew it to. */
    public static final Duration RELEASE_IDLE_AFTER = Duration.ofSeconds(30);

    private ServedModelLoader() {
    }

    /**
     * Renders a one-message conversation with the model's template and tokenizes it, once, so that the first request
     * does not pay the first render's and the first encoding's class loading and interpretation (the engine warms up
     * its own forward path). A template that refuses the message is simply not warmed, and neither is a tokenizer
     * that cannot encode it: a model whose vocabulary lacks the message's characters (a digits-only task model) is
     * still served, as it was before the warm-up existed.
     */
    static void warmUp(Optional<ChatTemplate> template, Tokenizer tokenizer, Map<String, String> special) {
        String text = template.flatMap(t -> switch (t.render(new ChatTemplateInput(List.of(Map.of("role", "user",
                "content", "Hello, how are you?")), null, null, true, false, special, Map.of()))) {
            case Outcome.Done<String> done -> Optional.of(done.value());
            case Outcome.Refused<String> refused -> Optional.<String>empty();
        }).orElse("Hello, how are you?");
        try {
            tokenizer.decode(tokenizer.encode(text, false), false);
        } catch (ModelFormatException cannotEncode) {
            // the warm-up is an optimisation: the requests this vocabulary can encode are served all the same
        }
    }

    /** Loads {@code folder} as {@code name} on {@code engine}, with the default bound on waiting requests. */
    public static ServedModel load(String name, ModelFolder folder, EngineProvider engine) {
        return load(name, folder, engine, GeneratorOptions.DEFAULT_MAX_WAITING_REQUESTS);
    }

    /**
     * Loads {@code folder} as {@code name} on {@code engine}; at most {@code maxWaitingRequests} of its requests
     * wait to be admitted (one more is refused as overloaded).
     *
     * @throws dev.crucible.engine.spi.EngineException when the engine cannot load it
     * @throws dev.crucible.hf.ModelFormatException  when its tokenizer.json cannot be read, whatever the engine
     * @throws IllegalArgumentException when the model's own chat template does not compile
     */
    public static ServedModel load(String name, ModelFolder folder, EngineProvider engine, int maxWaitingRequests) {
        return load(name, folder, engine, null, maxWaitingRequests, null);
    }

    /**
     * Loads {@code folder} as {@code name} on {@code engine} at {@code precision}, training its adapters on
     * {@code trainingEngine} when {@code engine} cannot train (the model is loaded there on the first training job).
     *
     * @param trainingEngine an engine with {@link Capability#TRAINING}, or null to train on {@code engine} alone
     * @param precision      the precision the configuration asks for, or null for the engine's default
     * @throws dev.crucible.engine.spi.EngineException when the engine cannot load it ({@code UNSUPPORTED_DTYPE} when
     *                                                 it cannot run {@code precision})
     */
    public static ServedModel load(String name, ModelFolder folder, EngineProvider engine,
            EngineProvider trainingEngine, int maxWaitingRequests, Precision precision) {
        return load(name, folder, engine, trainingEngine, maxWaitingRequests, precision,
                GeneratorOptions.DEFAULT_PREFIX_CACHE_TOKENS);
    }

    /**
     * As {@link #load(String, ModelFolder, EngineProvider, EngineProvider, int, Precision)}, keeping at most
     * {@code prefixCacheTokens} prompt tokens in the model's prefix cache (0 turns it off).
     *
     * @throws IllegalArgumentException for a negative {@code prefixCacheTokens}
     */
    public static ServedModel load(String name, ModelFolder folder, EngineProvider engine,
            EngineProvider trainingEngine, int maxWaitingRequests, Precision precision, int prefixCacheTokens) {
        return load(name, folder, engine, trainingEngine, maxWaitingRequests, precision, prefixCacheTokens,
                MAX_BATCH_SEQUENCES);
    }

    /**
     * As {@link #load(String, ModelFolder, EngineProvider, EngineProvider, int, Precision, int)}, decoding at most
     * {@code maxBatchSequences} sequences together, which also bounds a request's {@code n}.
     *
     * @throws IllegalArgumentException for a {@code maxBatchSequences} below 1
     */
    public static ServedModel load(String name, ModelFolder folder, EngineProvider engine,
            EngineProvider trainingEngine, int maxWaitingRequests, Precision precision, int prefixCacheTokens,
            int maxBatchSequences) {
        return load(name, folder, engine, trainingEngine, maxWaitingRequests, precision, prefixCacheTokens,
                maxBatchSequences, PrefillBudget.paced(PrefillBudget.DEFAULT_STALL_FACTOR), RELEASE_IDLE_AFTER);
    }

    /**
     * As {@link #load(String, ModelFolder, EngineProvider, EngineProvider, int, Precision, int, int)}, forwarding
     * at most {@code prefillBudget} prompt tokens a step while other sequences decode, and giving back the memory a
     * burst grew the runner to once generation has idled for {@code releaseIdleAfter} (zero: never).
     */
    public static ServedModel load(String name, ModelFolder folder, EngineProvider engine,
            EngineProvider trainingEngine, int maxWaitingRequests, Precision precision, int prefixCacheTokens,
            int maxBatchSequences, PrefillBudget prefillBudget, Duration releaseIdleAfter) {
        GeneratorOptions options = new GeneratorOptions(folder.config().maxPositionEmbeddings(), PREFILL_CHUNK_TOKENS,
                maxBatchSequences, maxWaitingRequests, prefixCacheTokens, prefillBudget, releaseIdleAfter);
        // One tokenizer whatever the engine, read before the weights: a model's prompt ids never depend on
        // --inference-engine, and a tokenizer.json it cannot read fails the model, not the engine.
        Tokenizer tokenizer = Tokenizer.load(folder.tokenizerJson());
        ModelRunner runner;
        try {
            runner = precision == null ? engine.loadModel(folder) : engine.loadModel(folder, precision);
        } catch (RuntimeException e) {
            tokenizer.close();
            throw e;
        }
        Optional<ChatTemplate> template = folder.tokenizer().chatTemplate().map(source -> switch (ChatTemplate.compile(source)) {
            case Outcome.Done<ChatTemplate> done -> done.value();
            case Outcome.Refused<ChatTemplate> refused -> {
                runner.close();
                tokenizer.close();
                throw new IllegalArgumentException("model '" + name + "': its chat template does not compile: "
                        + refused.refusal().message());
            }
        });
        Map<String, String> special = new LinkedHashMap<>();
        folder.tokenizer().bosToken().ifPresent(t -> special.put("bos_token", t));
        folder.tokenizer().eosToken().ifPresent(t -> special.put("eos_token", t));
        folder.tokenizer().padToken().ifPresent(t -> special.put("pad_token", t));
        folder.tokenizer().unkToken().ifPresent(t -> special.put("unk_token", t));
        List<Integer> eos = folder.generation().eosTokenIds().isEmpty() ? folder.config().eosTokenIds()
                : folder.generation().eosTokenIds();
        int maxModelLen = folder.config().maxPositionEmbeddings();
        OptionalInt eosId = folder.tokenizer().eosToken().map(tokenizer::tokenId).orElse(OptionalInt.empty());
        EndOfSequence endOfSequence = new EndOfSequence(eosId.isPresent() ? eosId
                : eos.isEmpty() ? OptionalInt.empty() : OptionalInt.of(eos.getFirst()), Set.copyOf(eos));
        warmUp(template, tokenizer, special);
        Generator generator = Generator.start(runner, tokenizer, endOfSequence,
                options);
        TrainingRunner training = trainingEngine == null || engine.capabilities().contains(Capability.TRAINING)
                ? TrainingRunner.serving(runner) : TrainingRunner.separate(runner, folder, trainingEngine);
        return new ServedModel(name, runner, tokenizer, template, special, eos, folder.generation(), maxModelLen,
                generator, ToolCallFormat.of(folder.config().architecture(), folder.tokenizer().chatTemplate()),
                training, engine.name(), folder.config(), SchedulingPolicy.FCFS);
    }
}

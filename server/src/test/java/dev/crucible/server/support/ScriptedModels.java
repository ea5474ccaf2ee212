package dev.crucible.server.support;

import dev.crucible.application.inference.serving.ServedModelLoader;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.engine.spi.Capability;
import dev.crucible.engine.spi.EngineHealth;
import dev.crucible.engine.spi.EngineProvider;
import dev.crucible.engine.spi.KvCache;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import dev.crucible.hf.tokenizer.Tokenizer;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.testsupport.engine.TokenListCache;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Test double of the served models, active only when {@code test.scripted-model} is set: the base model
 * {@value TestServer#BASE_MODEL} (its real tokenizer, template and configuration) answers each conversation with the
 * text written in it between {@code [[reply]]} and {@code [[/reply]]}, then its end-of-sequence token. It lets server tests make
 * a tiny random model write exactly what a test needs (a tool call, say), or fail as a broken engine would
 * ({@link #ERROR}, {@link #BREAK}); it is never part of the server. Its {@link ForwardGate} bean lets a test hold every
 * forward pass and every model (re)load. The model can be reloaded as the server's own models are.
 */
@Factory
@Requires(property = "test.scripted-model")
public class ScriptedModels {

    private static final String OPEN = "[[reply]]";
    private static final String CLOSE = "[[/reply]]";
    /** In a conversation, makes the forward that reads it throw an {@link OutOfMemoryError}. */
    public static final String ERROR = "[[error]]";
    /** In a conversation, breaks the model's runner: every forward throws until the model is reloaded. */
    public static final String BREAK = "[[break]]";

    @Singleton
    ForwardGate forwardGate() {
        return new ForwardGate();
    }

    @Singleton
    @Replaces(ServedModels.class)
    @Bean(preDestroy = "close")
    ServedModels scriptedServedModels(@Value("${crucible.data-dir}") Path dataDir, ForwardGate gate,
            @Value("${crucible.inference.max-waiting-requests:128}") int maxWaitingRequests) {
        try {
            ModelFolder folder = ModelFolder.read(dataDir.resolve("models").resolve(TestServer.BASE_MODEL));
            Engine engine = new Engine(gate);
            return new ServedModels(List.of(ServedModelLoader.load(TestServer.BASE_MODEL, folder, engine,
                    maxWaitingRequests)), failed -> ServedModelLoader.load(failed.name(), folder, engine,
                    maxWaitingRequests));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Borrows the installed engine's health; its model is the script. */
    private static final class Engine implements EngineProvider {

        private final ForwardGate gate;

        Engine(ForwardGate gate) {
            this.gate = gate;
        }

        private final EngineProvider real = ServiceLoader.load(EngineProvider.class).stream()
                .map(ServiceLoader.Provider::get).filter(e -> e.capabilities().contains(Capability.INFERENCE))
                .findFirst().orElseThrow();

        @Override
        public String name() {
            return "scripted";
        }

        @Override
        public Set<Capability> capabilities() {
            return Set.of(Capability.INFERENCE);
        }

        @Override
        public EngineHealth health() {
            return real.health();
        }

        @Override
        public ModelRunner loadModel(ModelFolder model) {
            gate.loads().pass();
            Tokenizer tokenizer = Tokenizer.load(model.tokenizerJson());
            int eos = model.tokenizer().eosToken().map(t -> tokenizer.tokenId(t).orElseThrow()).orElseThrow();
            return new Runner(model.config(), tokenizer, eos, gate, new AtomicBoolean());
        }
    }

    /**
     * Puts all weight on the next token of the reply the conversation asks for. A conversation that says
     * {@value #ERROR} makes its forward throw an {@link OutOfMemoryError}, as an engine short of memory would; one
     * that says {@value #BREAK} breaks this runner: every forward from then on throws an {@link InternalError}, until
     * the model is reloaded (a new runner).
     */
    private record Runner(ModelConfig config, Tokenizer tokenizer, int eos, ForwardGate gate, AtomicBoolean broken)
            implements ModelRunner {

        @Override
        public KvCache newCache(int capacityTokens) {
            return new TokenListCache(this, capacityTokens);
        }

        @Override
        public synchronized void copyPrefix(KvCache from, KvCache to, int tokens) {
            TokenListCache source = (TokenListCache) from;
            TokenListCache target = (TokenListCache) to;
            if (source == target || target.length() != 0 || tokens < 1 || tokens > source.length()
                    || tokens > target.capacity()) {
                throw new IllegalArgumentException("bad prefix copy");
            }
            target.tokens.addAll(source.tokens.subList(0, tokens));
        }

        @Override
        public synchronized List<SequenceLogits> forward(List<SequenceInput> batch) {
            gate.forwards().pass();
            for (SequenceInput input : batch) {
                List<Integer> context = new ArrayList<>(((TokenListCache) input.cache()).tokens);
                Arrays.stream(input.tokenIds()).forEach(context::add);
                String text = tokenizer.decode(context.stream().mapToInt(Integer::intValue).toArray(), false);
                if (text.contains(BREAK)) {
                    broken.set(true);
                }
                if (text.contains(ERROR)) {
                    throw new OutOfMemoryError("scripted: this forward ran out of memory");
                }
            }
            if (broken.get()) {
                throw new InternalError("scripted: this engine is broken");
            }
            return TokenListCache.forward(batch, this::next);
        }

        private float[] next(List<Integer> context) {
            int[] ids = context.stream().mapToInt(Integer::intValue).toArray();
            String text = tokenizer.decode(ids, false);
            int open = text.lastIndexOf(OPEN);
            int close = open < 0 ? -1 : text.indexOf(CLOSE, open + OPEN.length());
            int[] reply = close < 0 ? new int[0] : tokenizer.encode(text.substring(open + OPEN.length(), close), false);
            int[] script = Arrays.copyOf(reply, reply.length + 1);
            script[reply.length] = eos;
            // the longest start of the script that the context ends with is what was generated so far
            int done = 0;
            for (int k = Math.min(script.length - 1, ids.length); k > 0; k--) {
                if (Arrays.equals(ids, ids.length - k, ids.length, script, 0, k)) {
                    done = k;
                    break;
                }
            }
            float[] logits = new float[config.vocabSize()];
            logits[script[done]] = 30;
            return logits;
        }

        @Override
        public void close() {
            tokenizer.close();
        }
    }
}

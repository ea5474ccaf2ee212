package dev.crucible.application.inference.serving;

import dev.crucible.application.model.SchedulingPolicy;
import dev.crucible.kernel.invariant.NonNull;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.hf.tokenizer.Tokenizer;
import dev.crucible.hf.config.GenerationConfig;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.runtime.generation.Generator;
import dev.crucible.runtime.template.ChatTemplate;
import dev.crucible.runtime.tools.ToolCallFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A base model loaded for serving: its runner, tokenizer, chat template and generation defaults. Owns the runner and
 * tokenizer and closes them. Thread-safe (its parts are).
 *
 * @param name the name chat requests use
 * @param chatTemplate the model's default template; empty when its tokenizer defines none (requests must bring one)
 * @param specialTokens the special tokens templates see ({@code bos_token}, {@code eos_token}, ...)
 * @param eosTokenIds ids that end generation: the generation config's, else the model config's
 * @param generation the model's sampling defaults
 * @param maxModelLen the context length in tokens
 * @param generator the running generator that batches this model's requests
 * @param toolCallFormat how the model writes tool calls, empty when Crucible has no parser for it
 * @param training where adapters of this model train: the serving runner, or the model in an engine that can train
 * @param engine the name of the engine that serves it ({@code djl}, {@code onnx})
 * @param config the model's {@code config.json}: its shapes, which adapters for it must match
 * @param scheduling how its waiting requests are ordered, and so whether a request may set {@code priority}
 */
public record ServedModel(String name, ModelRunner runner, Tokenizer tokenizer, Optional<ChatTemplate> chatTemplate,
        Map<String, String> specialTokens, List<Integer> eosTokenIds, GenerationConfig generation, int maxModelLen,
        Generator generator, Optional<ToolCallFormat> toolCallFormat, TrainingRunner training, String engine,
        ModelConfig config, SchedulingPolicy scheduling)
        implements AutoCloseable {

    public ServedModel {
        NonNull.components(ServedModel.class, name, runner, tokenizer, chatTemplate, specialTokens, eosTokenIds,
                generation, generator, toolCallFormat, training, scheduling);
        specialTokens = Map.copyOf(specialTokens);
        eosTokenIds = List.copyOf(eosTokenIds);
    }

    /** This model under scheduling policy {@code policy}. */
    public ServedModel withScheduling(SchedulingPolicy policy) {
        return new ServedModel(name, runner, tokenizer, chatTemplate, specialTokens, eosTokenIds, generation,
                maxModelLen, generator, toolCallFormat, training, engine, config, policy);
    }

    @Override
    public void close() {
        try (training; runner; tokenizer; generator) {
            // all are closed: the generator first, then the tokenizer, the runner, and a separate training runner
        }
    }
}

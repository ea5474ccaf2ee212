package dev.crucible.server.cli;

import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.tiny.TinyModel;
import dev.crucible.server.client.ModelCommands;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code crucible models list|create|delete} against a server, and {@code crucible models make-tiny --arch A --out
 * DIR}, which writes a small random-weight model folder for tests and demos.
 */
@Command(name = "models", mixinStandardHelpOptions = true, description = "Models on a server, and model folders.",
        subcommands = {ModelCommands.List.class, ModelCommands.Create.class, ModelCommands.Delete.class,
            ModelsCommand.MakeTiny.class})
final class ModelsCommand {

    @Command(name = "make-tiny", mixinStandardHelpOptions = true,
            description = "Write a small, deterministic, random-weight model in Hugging Face format "
                    + "(weights, trained tokenizer, chat template).")
    static final class MakeTiny implements Callable<Integer> {

        private static final String ARCHS = Arrays.stream(Architecture.values()).map(Architecture::modelType)
                .collect(Collectors.joining(", "));

        @Spec
        CommandSpec spec;

        @Option(names = "--arch", required = true, description = "Architecture: qwen3, qwen2 or llama.")
        String arch;

        @Option(names = "--out", required = true, description = "Folder to write (created; its model files are replaced).")
        Path out;

        @Option(names = "--seed", defaultValue = "0", description = "Seed of the random weights (default 0).")
        long seed;

        @Override
        public Integer call() throws IOException {
            Architecture architecture = Arrays.stream(Architecture.values())
                    .filter(a -> a.modelType().equals(arch)).findFirst()
                    .orElseThrow(() -> new ParameterException(spec.commandLine(),
                            "--arch must be one of " + ARCHS + ", got '" + arch + "'"));
            long start = System.nanoTime();
            TinyModel model = TinyModel.write(architecture, out, seed);
            spec.commandLine().getOut().printf("wrote a tiny %s model to %s: %,d parameters, vocabulary %d, "
                    + "model.safetensors %,d bytes, in %d ms%n", arch, out.toAbsolutePath().normalize(),
                    model.parameters(), model.config().vocabSize(), model.bytes(),
                    (System.nanoTime() - start) / 1_000_000);
            spec.commandLine().getOut().flush();
            return 0;
        }
    }
}

package dev.crucible.bench;

import java.nio.file.Path;

/**
 * Writes bench/run's 0.5B-shaped model ({@link BenchModel#ensure}) and nothing else, so that a script can compile it
 * against the server's jar (which holds the current hf-format) without the bench jar and its installed engines.
 * Usage: {@code WriteBenchModel DIR SEED}.
 */
public final class WriteBenchModel {

    private WriteBenchModel() {
    }

    public static void main(String[] args) throws Exception {
        BenchModel.ensure(Path.of(args[0]), Long.parseLong(args[1]));
    }
}

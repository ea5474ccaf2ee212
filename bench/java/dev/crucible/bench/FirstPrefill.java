package dev.crucible.bench;

import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.hf.folder.ModelFolder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Whether the onnx engine's first prefill of a prompt length is slower than its next ones, once the model has loaded
 * (and warmed itself): prefills of 69 tokens (bench/serve's chat prompt) three times, then 70 and 133 twice each, each
 * in a fresh cache and followed by one decode step, printing each one's time. If the first is as fast as the rest, a
 * slow first request is the server's own path, not the engine's.
 */
final class FirstPrefill {

    private FirstPrefill() {
    }

    static void run(Path hf) throws IOException {
        try (ModelRunner runner = CrucibleDecode.engine("onnx").loadModel(ModelFolder.read(hf))) {
            for (int length : new int[] {69, 69, 69, 70, 70, 133, 133}) {
                int[] prompt = new int[length];
                for (int i = 0; i < length; i++) {
                    prompt[i] = 100 + (i * 37 + length) % 5000;
                }
                try (KvCache cache = runner.newCache(length + 2)) {
                    long t0 = System.nanoTime();
                    runner.forward(List.of(SequenceInput.of(cache, prompt)));
                    long t1 = System.nanoTime();
                    runner.forward(List.of(SequenceInput.of(cache, 5)));
                    long t2 = System.nanoTime();
                    System.out.printf("first-prefill: %d tokens %.1f ms, then a decode step %.1f ms%n", length,
                            (t1 - t0) / 1e6, (t2 - t1) / 1e6);
                }
            }
        }
    }
}

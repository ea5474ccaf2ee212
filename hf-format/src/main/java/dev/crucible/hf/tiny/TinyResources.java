package dev.crucible.hf.tiny;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The tiny models' built-in text files: the tokenizer corpus and the chat templates. */
final class TinyResources {

    private TinyResources() {
    }

    static String text(String name) {
        try (InputStream in = TinyResources.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

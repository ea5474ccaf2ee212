package dev.crucible.hf.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.hf.HfJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/** Published config.json files of real models, and edited copies of them. */
final class Fixtures {

    static final String QWEN2 = "qwen2.5-0.5b-instruct.json";
    static final String QWEN3 = "qwen3-0.6b.json";
    static final String LLAMA = "llama-3.1-8b-instruct.json";

    private Fixtures() {
    }

    static String text(String name) {
        try (InputStream in = Fixtures.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The fixture with {@code edit} applied to its JSON object. */
    static String edited(String name, Consumer<ObjectNode> edit) {
        ObjectNode o = (ObjectNode) HfJson.parse(text(name), name);
        edit.accept(o);
        return HfJson.pretty(o);
    }
}

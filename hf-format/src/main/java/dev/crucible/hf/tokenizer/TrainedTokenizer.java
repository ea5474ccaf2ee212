package dev.crucible.hf.tokenizer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/** A trained BPE model with its added tokens, ready to be written as a tokenizer.json. Immutable. */
public record TrainedTokenizer(BpeModel model, TokenizerSpec spec) {

    /** Rejects nulls and added tokens that clash with vocabulary entries. */
    public TrainedTokenizer {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(spec, "spec");
        for (AddedToken t : spec.addedTokens()) {
            if (model.vocab().contains(t.content())) {
                throw new IllegalArgumentException("added token " + t.content() + " is already in the vocabulary");
            }
        }
    }

    /** Vocabulary plus added tokens: one more than the largest id. */
    public int size() {
        return model.vocab().size() + spec.addedTokens().size();
    }

    /** The id of an added token or vocabulary entry; an unknown one is a programming error. */
    public int idOf(String token) {
        for (int i = 0; i < spec.addedTokens().size(); i++) {
            if (spec.addedTokens().get(i).content().equals(token)) {
                return model.vocab().size() + i;
            }
        }
        int id = model.vocab().indexOf(token);
        if (id < 0) {
            throw new IllegalArgumentException("no token " + token);
        }
        return id;
    }

    /** The tokenizer.json text, laid out as Qwen2's (or Llama 3's) files are. */
    public String toJson() {
        return TokenizerJsonWriter.write(this);
    }

    /** Writes the tokenizer.json text to {@code file}. */
    public void write(Path file) throws IOException {
        Files.writeString(file, toJson());
    }
}

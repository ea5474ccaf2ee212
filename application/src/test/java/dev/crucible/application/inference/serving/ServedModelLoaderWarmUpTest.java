package dev.crucible.application.inference.serving;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.hf.ModelFormatException;
import dev.crucible.hf.tokenizer.AddedToken;
import dev.crucible.hf.tokenizer.BpeModel;
import dev.crucible.hf.tokenizer.Tokenizer;
import dev.crucible.hf.tokenizer.TokenizerSpec;
import dev.crucible.hf.tokenizer.TokenizerStyle;
import dev.crucible.hf.tokenizer.TrainedTokenizer;
import dev.crucible.runtime.template.ChatTemplate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.UniqueElements;
import org.junit.jupiter.api.Test;

/**
 * The load-time warm-up never refuses a model: a vocabulary that cannot encode the warm-up message (a task model of
 * digits and operators, as {@code bench/learn-task} makes) is served unwarmed instead of failing to load.
 */
class ServedModelLoaderWarmUpTest {

    private static final String COMPACT_TEMPLATE = "{%- for message in messages -%}"
            + "{%- if message.role == 'assistant' -%}{{- message.content + '<|im_end|>' -}}"
            + "{%- else -%}{{- message.content + '=' -}}{%- endif -%}{%- endfor -%}";

    @Test
    void aDigitsOnlyVocabularyIsServedUnwarmed() throws IOException {
        try (Tokenizer tokenizer = tokenizer(List.of("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+", "="))) {
            assertThrows(ModelFormatException.class, () -> tokenizer.encode("Hello, how are you?", false));
            Optional<ChatTemplate> template = Optional.of(value(ChatTemplate.compile(COMPACT_TEMPLATE)));
            assertDoesNotThrow(() -> ServedModelLoader.warmUp(template, tokenizer, Map.of()));
            assertDoesNotThrow(() -> ServedModelLoader.warmUp(Optional.empty(), tokenizer, Map.of()));
            assertArrayEquals(new int[] {1, 2, 10, 3, 11}, tokenizer.encode("12+3=", false));
        }
    }

    @Property(tries = 40)
    void noVocabularyFailsTheWarmUp(@ForAll @Size(min = 1, max = 40) @UniqueElements List<@CharRange(from = '!',
            to = '~') Character> alphabet, @ForAll boolean withTemplate) throws IOException {
        try (Tokenizer tokenizer = tokenizer(alphabet.stream().map(String::valueOf).toList())) {
            Optional<ChatTemplate> template = withTemplate ? Optional.of(value(ChatTemplate.compile(COMPACT_TEMPLATE)))
                    : Optional.empty();
            assertDoesNotThrow(() -> ServedModelLoader.warmUp(template, tokenizer, Map.of()));
        }
    }

    /** A byte-level BPE without merges over {@code vocab}, one token per character, with Qwen's end of turn. */
    private static Tokenizer tokenizer(List<String> vocab) throws IOException {
        TrainedTokenizer trained = new TrainedTokenizer(new BpeModel(vocab, List.of()), new TokenizerSpec(
                TokenizerStyle.QWEN2, List.of(new AddedToken("<|im_end|>", true)), Optional.empty()));
        Path dir = Files.createTempDirectory("warm-up");
        Path file = dir.resolve("tokenizer.json");
        Files.writeString(file, trained.toJson());
        try {
            return Tokenizer.load(file);
        } finally {
            Files.delete(file);
            Files.delete(dir);
        }
    }
}

package dev.crucible.runtime.template;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every case under {@code chat-templates/cases} rendered and compared byte for byte with the output of real jinja2,
 * configured as transformers configures it ({@code chat-templates/make-golden.py} wrote {@code chat-templates/golden}).
 */
class ChatTemplateGoldenTest {

    /** The instant make-golden.py freezes {@code strftime_now} at, read in UTC as Python's naive local time. */
    static final Clock FROZEN = Clock.fixed(Instant.parse("2026-11-22T09:05:07Z"), ZoneOffset.UTC);

    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<String> cases() throws IOException {
        try (Stream<Path> files = Files.list(fixtures().resolve("cases"))) {
            return files.map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith(".json"))
                    .map(name -> name.substring(0, name.length() - ".json".length()))
                    .sorted()
                    .toList()
                    .stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rendersAsJinja2(String name) throws IOException {
        Map<String, Object> fixture = JSON.readValue(fixtures().resolve("cases/" + name + ".json").toFile(),
                new TypeReference<Map<String, Object>>() { });
        String source = Files.readString(fixtures().resolve("templates/" + fixture.get("template")));
        ChatTemplate template = done(ChatTemplate.compile(source, FROZEN));

        Outcome<String> rendered = template.render(input(fixture));

        Path golden = fixtures().resolve("golden/" + name + ".txt");
        if (Files.exists(golden)) {
            byte[] expected = Files.readAllBytes(golden);
            String actual = done(rendered);
            assertEquals(new String(expected, StandardCharsets.UTF_8), actual); // a readable diff first
            assertArrayEquals(expected, actual.getBytes(StandardCharsets.UTF_8));
        } else {
            String message = Files.readString(fixtures().resolve("golden/" + name + ".error"));
            assertEquals(Outcome.refused(Refusal.invalid("messages", message)), rendered);
        }
    }

    @SuppressWarnings("unchecked")
    static ChatTemplateInput input(Map<String, Object> fixture) {
        return new ChatTemplateInput(
                (List<Map<String, Object>>) fixture.get("messages"),
                (List<Map<String, Object>>) fixture.get("tools"),
                (List<Map<String, Object>>) fixture.get("documents"),
                Boolean.TRUE.equals(fixture.get("add_generation_prompt")),
                Boolean.TRUE.equals(fixture.get("continue_final_message")),
                (Map<String, String>) fixture.get("special_tokens"),
                (Map<String, Object>) fixture.get("kwargs"));
    }

    static <T> T done(Outcome<T> outcome) {
        return switch (outcome) {
            case Outcome.Done<T> done -> done.value();
            case Outcome.Refused<T> refused -> throw new AssertionError("refused: " + refused.refusal());
        };
    }

    static Path fixtures() {
        try {
            return Path.of(Objects.requireNonNull(ChatTemplateGoldenTest.class.getResource("/chat-templates")).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}

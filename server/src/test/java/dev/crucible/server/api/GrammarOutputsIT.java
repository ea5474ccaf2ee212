package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.errors.BadRequestException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import dev.crucible.testsupport.constraint.Arithmetic;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Grammar and structural-tag constraints on a tiny random-weight model: its words are noise, so outputs that parse
 * under the grammar on every seed and choice show the masks at work. Outputs are checked by recognisers written
 * here, not by the server's parser.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GrammarOutputsIT {

    private static final JsonMapper JSON = JsonMapper.createDefault();
    private static final int SEEDS = 6;
    private static final Arithmetic ARITHMETIC = new Arithmetic("*", 2);
    @AutoClose
    private final TestServer server = TestServer.start(Map.of());
    private final Api api = server.api(server.newKey("gina"));

    private static Map<String, Object> request(Object... pairs) {
        return RequestBodies.chat("Answer", pairs);
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> choices(Map<String, Object> body) {
        Api.Reply reply = api.post("/v1/chat/completions", body);
        assertEquals(200, reply.status(), reply.toString());
        return (List<Map<String, Object>>) reply.json().get("choices");
    }

    @SuppressWarnings("unchecked")
    private static String content(Map<String, Object> choice) {
        return (String) ((Map<String, Object>) choice.get("message")).get("content");
    }

    @Test
    void aChoiceGrammarGivesYesOrNoOnEverySeedAndChoice() {
        for (int seed = 0; seed < SEEDS; seed++) {
            for (Map<String, Object> choice : choices(request("seed", seed, "n", 2, "max_tokens", 10,
                    "structured_outputs", Map.of("grammar", "root ::= \"yes\" | \"no\"")))) {
                assertTrue(List.of("yes", "no").contains(content(choice)), content(choice));
                assertEquals("stop", choice.get("finish_reason"));
            }
        }
    }

    @Test
    void recursiveArithmeticIsWholeWhenStoppedAndAViablePrefixWhenCut() {
        for (int seed = 0; seed < SEEDS; seed++) {
            for (Map<String, Object> choice : choices(request("seed", seed, "n", 2, "max_tokens", 40,
                    "structured_outputs", Map.of("grammar", ARITHMETIC.grammar())))) {
                String text = content(choice);
                if ("stop".equals(choice.get("finish_reason"))) {
                    assertTrue(ARITHMETIC.accepts(text), "not an expression: " + text);
                } else {
                    assertEquals("length", choice.get("finish_reason"));
                    assertTrue(ARITHMETIC.accepts(Arithmetic.completion(text)), "not a viable prefix: " + text);
                }
            }
        }
    }

    @Test
    void aJsonishListGrammarGivesAParsableListOnEverySeed() {
        String grammar = """
                root ::= "[" ( item ( "," item ){0,3} )? "]"
                item ::= [0-9]{1,3} | "\\"" [a-z]{0,5} "\\""
                """;
        Pattern whole = Pattern.compile("\\[((\\d{1,3}|\"[a-z]{0,5}\")(,(\\d{1,3}|\"[a-z]{0,5}\")){0,3})?]");
        for (int seed = 0; seed < SEEDS; seed++) {
            for (Map<String, Object> choice : choices(request("seed", seed, "n", 2, "max_tokens", 80,
                    "structured_outputs", Map.of("grammar", grammar)))) {
                String text = content(choice);
                assertEquals("stop", choice.get("finish_reason"), text);
                assertTrue(whole.matcher(text).matches(), text);
                assertTrue(parse(text) instanceof List<?>, text);
            }
        }
    }

    @Test
    void streamedGrammarOutputAddsUpToAWholeMatch() {
        Api.Events response = api.stream("/v1/chat/completions", request("seed", 3, "max_tokens", 10, "stream", true,
                "structured_outputs", Map.of("grammar", "root ::= (\"ab\" | \"c\") \"!\"")));
        assertEquals(200, response.status());
        StringBuilder text = new StringBuilder();
        for (String line : response.data().stream().filter(l -> l.startsWith("data: {")).toList()) {
            Matcher m = Pattern.compile("\"content\":\"([^\"]*)\"").matcher(line);
            while (m.find()) {
                text.append(m.group(1));
            }
        }
        assertTrue(List.of("ab!", "c!").contains(text.toString()), text.toString());
    }

    @Test
    void structuralTagOutputHoldsWellFormedTaggedJsonWhereverTheTriggerAppears() {
        Map<String, Object> format = Map.of("type", "structural_tag", "triggers", List.of("e"), "structures",
                List.of(Map.of("begin", "e<", "schema", Map.of("type", "integer", "minimum", 0, "maximum", 99),
                        "end", ">")));
        String asString = "{\"triggers\": [\"e\"], \"structures\": [{\"begin\": \"e<\", \"schema\": "
                + "{\"type\": \"integer\", \"minimum\": 0, \"maximum\": 99}, \"end\": \">\"}]}";
        Pattern tag = Pattern.compile("e<(0|[1-9][0-9]?)>");
        int tags = 0;
        for (int seed = 0; seed < SEEDS; seed++) {
            Map<String, Object> body = seed % 2 == 0 ? request("seed", seed, "max_tokens", 40, "response_format",
                    format) : request("seed", seed, "max_tokens", 40, "structured_outputs",
                    Map.of("structural_tag", asString));
            for (Map<String, Object> choice : choices(body)) {
                String text = content(choice);
                boolean cut = "length".equals(choice.get("finish_reason"));
                for (int at = text.indexOf('e'); at >= 0; at = text.indexOf('e', at + 1)) {
                    Matcher m = tag.matcher(text).region(at, text.length());
                    if (m.lookingAt()) {
                        tags++;
                        at = m.end() - 1;
                    } else {
                        assertTrue(cut && text.substring(at).matches("e(<([1-9][0-9]?|0)?)?"),
                                "trigger without a well-formed tag at " + at + ": " + text);
                        break;
                    }
                }
            }
        }
        System.out.println("structural tags seen: " + tags);
    }

    @Test
    void theOpenAiSdkSendsAGrammarAsAnExtraBodyField() {
        OpenAIClient client = OpenAIOkHttpClient.builder().apiKey(server.newKey("sdk")).baseUrl(server.url() + "/v1")
                .maxRetries(0).build();
        for (int seed = 0; seed < 3; seed++) {
            ChatCompletion completion = client.chat().completions().create(ChatCompletionCreateParams.builder()
                    .model(TestServer.BASE_MODEL).addUserMessage("Pick").maxCompletionTokens(10).seed(seed).n(2)
                    .putAdditionalBodyProperty("structured_outputs",
                            JsonValue.from(Map.of("grammar", "root ::= (\"red\" | \"blue\") \"!\"{1,2}")))
                    .build());
            completion.choices().forEach(choice -> assertTrue(
                    choice.message().content().orElseThrow().matches("(red|blue)!{1,2}"), choice.toString()));
        }
        BadRequestException refused = assertThrows(BadRequestException.class, () -> client.chat().completions()
                .create(ChatCompletionCreateParams.builder().model(TestServer.BASE_MODEL).addUserMessage("Pick")
                        .putAdditionalBodyProperty("structured_outputs",
                                JsonValue.from(Map.of("grammar", "root ::= colour\ncolour ::= \"red\" | \"blue")))
                        .putAdditionalBodyProperty("seed", JsonValue.from(1)).build()));
        String error = refused.getMessage() + " " + refused.body();
        assertTrue(error.contains("structured_outputs") && error.contains("unterminated string literal in rule "
                + "'colour'"), error);
    }

    @Test
    void badGrammarsAndStructuralTagsAreRefusedNamingTheFieldAndTheRule() {
        assertRefused(request("structured_outputs", Map.of("grammar", "root ::= \"a\" item\n")), "structured_outputs",
                "rule 'item' is not defined (referenced in rule 'root' at line 1, column 14)");
        assertRefused(request("structured_outputs", Map.of("grammar", "root ::= value\nvalue ::= (\"a\" | \"b\"\n")),
                "structured_outputs", "expected ')' in rule 'value'");
        assertRefused(request("structured_outputs", Map.of("grammar", "start ::= \"a\"")), "structured_outputs",
                "no rule named 'root'");
        assertRefused(request("structured_outputs", Map.of("grammar", "")), "structured_outputs",
                "structured_outputs.grammar cannot be an empty string");
        assertRefused(request("response_format", Map.of("type", "structural_tag", "triggers", List.of("<f"),
                "structures", List.of(Map.of("begin", "<g>", "schema", Map.of(), "end", "</g>")))), "response_format",
                "structures[0].begin '<g>' does not start with any of the triggers");
        assertRefused(request("structured_outputs", Map.of("structural_tag", "not json")), "structured_outputs",
                "Invalid structured_outputs structural_tag specification");
    }

    private void assertRefused(Map<String, Object> body, String param, String message) {
        Api.Reply reply = api.post("/v1/chat/completions", body);
        reply.assertRefused(400, param, message);
    }

    private static Object parse(String text) {
        try {
            return JSON.readValue(text, Argument.OBJECT_ARGUMENT);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

}

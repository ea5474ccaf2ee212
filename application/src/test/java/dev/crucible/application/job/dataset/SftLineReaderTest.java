package dev.crucible.application.job.dataset;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertInvalid;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.domain.job.SftExample;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SftLineReaderTest {

    private static final String ASSISTANT = "{\"role\": \"assistant\", \"content\": \"4\"}";

    private static void assertLineRefused(String json, String problem) {
        assertInvalid(SftLineReader.read(3, JacksonLines.PARSER.parse(json)), "training_data_url",
                "training data line 3: " + problem);
    }

    private static SftExample read(String json) {
        return value(SftLineReader.read(3, JacksonLines.PARSER.parse(json)));
    }

    @Test
    void readsMessagesAndToolsAsTheJsonObjectsTheyAre() {
        SftExample example = read("{\"messages\": [{\"role\": \"system\", \"content\": \"be brief\"}, "
                + "{\"role\": \"user\", \"content\": \"2+2?\"}, " + ASSISTANT + "], \"tools\": [{\"type\": \"function\", "
                + "\"function\": {\"name\": \"add\", \"parameters\": {\"type\": \"object\"}}}], \"extra\": 1}");
        assertEquals(3, example.line());
        assertEquals(3, example.messages().size());
        assertEquals(Map.of("role", "user", "content", "2+2?"), example.messages().get(1));
        assertEquals("add", ((Map<?, ?>) example.tools().getFirst().get("function")).get("name"));
    }

    @Test
    void missingOrNullToolsAreEmpty() {
        assertEquals(List.of(), read("{\"messages\": [" + ASSISTANT + "]}").tools());
        assertEquals(List.of(), read("{\"messages\": [" + ASSISTANT + "], \"tools\": null}").tools());
    }

    @Test
    void aLineMustBeAnObject() {
        assertLineRefused("[1, 2]", "must be a JSON object with messages and optional tools, got an array");
        assertLineRefused("null", "must be a JSON object with messages and optional tools, got null");
        assertLineRefused("\"hi\"", "must be a JSON object with messages and optional tools, got a string");
    }

    @Test
    void messagesMustBeANonEmptyList() {
        assertLineRefused("{}", "messages must be a non-empty list");
        assertLineRefused("{\"messages\": null}", "messages must be a non-empty list");
        assertLineRefused("{\"messages\": []}", "messages must be a non-empty list");
        assertLineRefused("{\"messages\": \"hi\"}", "messages must be a non-empty list, got a string");
        assertLineRefused("{\"messages\": {\"role\": \"user\"}}", "messages must be a non-empty list, got an object");
    }

    @Test
    void eachMessageMustBeAnObject() {
        assertLineRefused("{\"messages\": [" + ASSISTANT + ", 7]}", "messages[1] must be an object, got the number 7");
    }

    @Test
    void theLastMessageMustBeTheAssistants() {
        assertLineRefused("{\"messages\": [" + ASSISTANT + ", {\"role\": \"user\", \"content\": \"again\"}]}",
                "the last message must be from the assistant, got role 'user'");
        assertLineRefused("{\"messages\": [{\"role\": \"system\", \"content\": \"x\"}]}",
                "the last message must be from the assistant, got role 'system'");
    }

    /** A bad role, content or tool call in a message is refused naming the message's field. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"content\": \"x\"}|messages[0].role is required",
        "{\"role\": null, \"content\": \"x\"}|messages[0].role is required",
        "{\"role\": \"bot\", \"content\": \"x\"}|messages[0].role must be one of system, developer, user, assistant, tool, got 'bot'",
        "{\"role\": \"Assistant\", \"content\": \"x\"}|messages[0].role must be one of system, developer, user, assistant, tool, got 'Assistant'",
        "{\"role\": 2, \"content\": \"x\"}|messages[0].role must be one of system, developer, user, assistant, tool, got the number 2",
        "{\"role\": \"user\"}|messages[0].content must be a string or a list of text parts, got null",
        "{\"role\": \"user\", \"content\": 5}|messages[0].content must be a string or a list of text parts, got the number 5",
        "{\"role\": \"user\", \"content\": {\"text\": \"x\"}}|messages[0].content must be a string or a list of text parts, got an object",
        "{\"role\": \"user\", \"content\": [\"x\"]}|messages[0].content[0] must be a text part {\"type\": \"text\", \"text\": string}, got a string",
        "{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"a\"}, {\"type\": \"image_url\", \"image_url\": {}}]}|messages[0].content[1] must be a text part {\"type\": \"text\", \"text\": string}, got a part of type 'image_url'",
        "{\"role\": \"user\", \"content\": [{\"type\": \"text\"}]}|messages[0].content[0] must be a text part {\"type\": \"text\", \"text\": string}, got an object",
        "{\"role\": \"assistant\"}|messages[0].content must be a string or a list of text parts, got null",
        "{\"role\": \"assistant\", \"tool_calls\": []}|messages[0].content must be a string or a list of text parts, got null",
        "{\"role\": \"user\", \"content\": \"x\", \"tool_calls\": []}|messages[0].tool_calls is only allowed on assistant messages, got role 'user'",
        "{\"role\": \"assistant\", \"tool_calls\": {}}|messages[0].tool_calls must be a list of function calls, got an object",
        "{\"role\": \"assistant\", \"tool_calls\": [3]}|messages[0].tool_calls[0] must be an object, got the number 3",
        "{\"role\": \"assistant\", \"tool_calls\": [{\"type\": \"code\", \"function\": {\"name\": \"f\"}}]}|messages[0].tool_calls[0].type must be 'function', got 'code'",
        "{\"role\": \"assistant\", \"tool_calls\": [{\"function\": \"f\"}]}|messages[0].tool_calls[0].function must be an object, got a string",
        "{\"role\": \"assistant\", \"tool_calls\": [{\"function\": {\"name\": \"\"}}]}|messages[0].tool_calls[0].function.name must be a non-empty string",
        "{\"role\": \"assistant\", \"tool_calls\": [{\"function\": {\"name\": \"f\", \"arguments\": 1}}]}|messages[0].tool_calls[0].function.arguments must be a JSON string or an object, got the number 1",
    })
    void aBadMessageIsRefusedNamingItsField(String message, String problem) {
        assertLineRefused("{\"messages\": [" + message + ", " + ASSISTANT + "]}", problem);
    }

    @Test
    void everyOpenAiRoleIsAccepted() {
        SftExample example = read("{\"messages\": [{\"role\": \"system\", \"content\": \"s\"}, {\"role\": \"developer\", "
                + "\"content\": \"d\"}, {\"role\": \"user\", \"content\": \"u\"}, {\"role\": \"assistant\", \"content\": null, "
                + "\"tool_calls\": [{\"id\": \"c1\", \"type\": \"function\", \"function\": {\"name\": \"f\", \"arguments\": "
                + "\"{}\"}}]}, {\"role\": \"tool\", \"tool_call_id\": \"c1\", \"content\": \"42\"}, " + ASSISTANT + "]}");
        assertEquals(6, example.messages().size());
    }

    @Test
    void textPartsAreAccepted() {
        SftExample example = read("{\"messages\": [{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"a\"}]}, "
                + "{\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"b\"}]}]}");
        assertEquals(2, example.messages().size());
    }

    @Test
    void anAssistantMessageMayBeOnlyToolCalls() {
        SftExample example = read("{\"messages\": [{\"role\": \"user\", \"content\": \"u\"}, {\"role\": \"assistant\", "
                + "\"tool_calls\": [{\"function\": {\"name\": \"f\", \"arguments\": {\"x\": 1}}}]}]}");
        assertEquals(2, example.messages().size());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{}|tools must be a list of function tools, got an object",
        "\"add\"|tools must be a list of function tools, got a string",
        "[1]|tools[0] must be an object, got the number 1",
        "[{\"function\": {\"name\": \"f\"}}]|tools[0].type must be 'function', got nothing",
        "[{\"type\": \"retrieval\"}]|tools[0].type must be 'function', got 'retrieval'",
        "[{\"type\": \"function\"}]|tools[0].function must be an object, got null",
        "[{\"type\": \"function\", \"function\": {\"description\": \"d\"}}]|tools[0].function.name must be a non-empty string",
        "[{\"type\": \"function\", \"function\": {\"name\": \"f\", \"parameters\": []}}]|tools[0].function.parameters must be an object, got an array",
    })
    void toolsAreAListOfFunctionTools(String tools, String problem) {
        assertLineRefused("{\"messages\": [" + ASSISTANT + "], \"tools\": " + tools + "}", problem);
    }
}

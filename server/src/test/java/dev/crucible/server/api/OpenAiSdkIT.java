package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.NotFoundException;
import com.openai.errors.UnauthorizedException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionDeleted;
import com.openai.models.chat.completions.ChatCompletionListParams;
import com.openai.models.chat.completions.ChatCompletionStoreMessage;
import com.openai.models.chat.completions.ChatCompletionUpdateParams;
import com.openai.core.JsonValue;
import dev.crucible.application.completion.StoredCompletionWriter;
import com.openai.models.files.FileCreateParams;
import com.openai.models.files.FileDeleted;
import com.openai.models.files.FileListParams;
import com.openai.models.files.FileObject;
import com.openai.models.files.FilePurpose;
import dev.crucible.server.support.TestServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The official OpenAI Java SDK, unchanged, pointed at Crucible's /v1. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenAiSdkIT {

    @AutoClose
    private final TestServer server = TestServer.start(Map.of());
    private final OpenAIClient client = OpenAIOkHttpClient.builder().apiKey(server.newKey("quinn")).baseUrl(server.url() + "/v1")
                .maxRetries(0).build();

    private static ChatCompletionCreateParams params(String model) {
        return ChatCompletionCreateParams.builder().model(model).addUserMessage("hello from the sdk")
                .maxCompletionTokens(6).temperature(0.0).build();
    }

    @Test
    void completesAndStreams() {
        ChatCompletion completion = client.chat().completions().create(params(TestServer.BASE_MODEL));
        assertEquals(1, completion.choices().size());
        assertTrue(completion.choices().getFirst().message().content().isPresent());
        assertEquals(6L, completion.usage().orElseThrow().completionTokens());

        String streamed;
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions()
                .createStreaming(params(TestServer.BASE_MODEL))) {
            streamed = stream.stream().flatMap(chunk -> chunk.choices().stream())
                    .map(choice -> choice.delta().content().orElse("")).collect(Collectors.joining());
        }
        assertEquals(completion.choices().getFirst().message().content().orElseThrow(), streamed);
    }

    @Test
    void listsModelsAndMapsErrorsToSdkExceptions() {
        assertTrue(client.models().list().data().stream().anyMatch(m -> m.id().equals(TestServer.BASE_MODEL)));
        assertEquals(TestServer.BASE_MODEL, client.models().retrieve(TestServer.BASE_MODEL).id());
        assertThrows(NotFoundException.class, () -> client.models().retrieve("no-such-model"));
        assertThrows(NotFoundException.class, () -> client.chat().completions().create(params("no-such-model")));
        OpenAIClient stranger = OpenAIOkHttpClient.builder().apiKey("wrong").baseUrl(server.url() + "/v1")
                .maxRetries(0).build();
        assertThrows(UnauthorizedException.class, () -> stranger.chat().completions().create(params(TestServer.BASE_MODEL)));
    }

    @Test
    void uploadsListsRetrievesDownloadsAndDeletesFiles() throws IOException {
        String jsonl = "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}, "
                + "{\"role\": \"assistant\", \"content\": \"hello\"}]}\n";
        Path local = Files.writeString(Files.createTempDirectory("sdk-").resolve("train.jsonl"), jsonl);
        FileObject created = client.files().create(FileCreateParams.builder().file(local)
                .purpose(FilePurpose.FINE_TUNE).build());
        assertTrue(created.id().matches("file-[0-9a-f]{32}"), created.id());
        assertEquals("train.jsonl", created.filename());
        assertEquals(jsonl.getBytes(StandardCharsets.UTF_8).length, created.bytes());
        assertEquals(FileObject.Purpose.FINE_TUNE, created.purpose());
        assertEquals(FileObject.Status.PROCESSED, created.status());
        assertTrue(Math.abs(created.createdAt() - System.currentTimeMillis() / 1000) < 60);

        assertEquals(created, client.files().retrieve(created.id()));
        List<String> listed = client.files().list(FileListParams.builder().purpose("fine-tune").build())
                .autoPager().stream().map(FileObject::id).toList();
        assertTrue(listed.contains(created.id()), listed.toString());
        try (var response = client.files().content(created.id()); InputStream body = response.body()) {
            assertEquals(jsonl, new String(body.readAllBytes(), StandardCharsets.UTF_8));
        }

        FileDeleted deleted = client.files().delete(created.id());
        assertEquals(created.id(), deleted.id());
        assertTrue(deleted.deleted());
        assertThrows(NotFoundException.class, () -> client.files().retrieve(created.id()));
    }

    @Test
    void aFileLargerThanTheInMemoryThresholdRoundTrips() throws IOException {
        byte[] data = new byte[3 * 1024 * 1024 + 17];
        new java.util.Random(5).nextBytes(data);
        FileObject created = client.files().create(FileCreateParams.builder()
                .file(Files.write(Files.createTempDirectory("sdk-").resolve("big.bin"), data))
                .purpose(FilePurpose.USER_DATA).build());
        assertEquals(data.length, created.bytes());
        try (var response = client.files().content(created.id()); InputStream body = response.body()) {
            assertTrue(java.util.Arrays.equals(data, body.readAllBytes()), "the bytes come back as uploaded");
        }
        client.files().delete(created.id());
    }

    @Test
    void storesListsRetrievesUpdatesPagesMessagesAndDeletesStoredCompletions() throws Exception {
        ChatCompletion created = client.chat().completions().create(ChatCompletionCreateParams.builder()
                .model(TestServer.BASE_MODEL).addUserMessage("keep this one").maxCompletionTokens(3).store(true)
                .metadata(ChatCompletionCreateParams.Metadata.builder()
                        .putAdditionalProperty("run", JsonValue.from("sdk")).build()).build());
        server.bean(StoredCompletionWriter.class).flushed().get(30, TimeUnit.SECONDS);

        ChatCompletion got = client.chat().completions().retrieve(created.id());
        assertEquals(created.id(), got.id());
        assertEquals(created.choices().getFirst().message().content(), got.choices().getFirst().message().content());
        assertEquals(JsonValue.from("sdk"), got.metadata().orElseThrow()._additionalProperties().get("run"));

        List<ChatCompletion> listed = client.chat().completions().list(ChatCompletionListParams.builder()
                .metadata(ChatCompletionListParams.Metadata.builder()
                        .putAdditionalProperty("run", "sdk").build())
                .model(TestServer.BASE_MODEL).limit(10).build()).data();
        assertEquals(List.of(created.id()), listed.stream().map(ChatCompletion::id).toList());

        ChatCompletion updated = client.chat().completions().update(created.id(), ChatCompletionUpdateParams.builder()
                .metadata(ChatCompletionUpdateParams.Metadata.builder()
                        .putAdditionalProperty("run", JsonValue.from("sdk-2")).build()).build());
        assertEquals(JsonValue.from("sdk-2"), updated.metadata().orElseThrow()._additionalProperties().get("run"));

        List<ChatCompletionStoreMessage> messages = client.chat().completions().messages().list(created.id()).data();
        assertEquals(List.of(created.id() + "-0"), messages.stream().map(ChatCompletionStoreMessage::id).toList());
        assertEquals("keep this one", messages.getFirst().content().orElseThrow());

        ChatCompletionDeleted deleted = client.chat().completions().delete(created.id());
        assertTrue(deleted.deleted());
        assertEquals(created.id(), deleted.id());
        assertThrows(NotFoundException.class, () -> client.chat().completions().retrieve(created.id()));
    }
}

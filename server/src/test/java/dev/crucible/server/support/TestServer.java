package dev.crucible.server.support;

import dev.crucible.application.model.AdapterFiles;
import dev.crucible.application.tenancy.IssueApiKeyUseCase;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.tiny.TinyModel;
import dev.crucible.testsupport.database.TestDatabase;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;

/**
 * A whole Crucible server on a random port over a real PostgreSQL database, with a base model folder named
 * {@value #BASE_MODEL}. Several servers may share one database (restarts, several processes).
 */
public final class TestServer implements AutoCloseable {

    public static final String BASE_MODEL = "tiny-base";
    public static final String OTHER_BASE_MODEL = "tiny-base-2";
    /** The tiny models this JVM has written, by name, to copy from. */
    private static final Map<String, Path> WRITTEN = new HashMap<>();

    private final ApplicationContext context;
    private final EmbeddedServer server;
    private final String databaseUrl;
    private final Path dataDir;
    private OpenApiContract contract;

    private TestServer(ApplicationContext context, String databaseUrl, Path dataDir) {
        this.context = context;
        this.server = context.getBean(EmbeddedServer.class);
        this.databaseUrl = databaseUrl;
        this.dataDir = dataDir;
    }

    /** A server on a fresh database ({@link #migratedDatabase()}). */
    public static TestServer start(Map<String, Object> extra) {
        return start(migratedDatabase(), newDataDir(), extra);
    }

    /**
     * A fresh database with the server's schema: a copy of one that Flyway migrated once in this JVM with the
     * server's settings (its defaults: {@code classpath:db/migration}). The server's own Flyway then validates it and
     * finds nothing to apply, which saves each server start most of a second; migrating an empty database is what the
     * ITs of {@code crucible serve} processes, on {@link TestDatabase#freshDatabase()}, still do.
     */
    public static String migratedDatabase() {
        return TestDatabase.freshCopyOf("migrated",
                template -> Flyway.configure().dataSource(template, TestDatabase.USER, "").load().migrate());
    }

    /** A server on {@code databaseUrl} (for restarts and shared databases). */
    public static TestServer start(String databaseUrl, Path dataDir, Map<String, Object> extra) {
        Map<String, Object> props = new HashMap<>(properties(databaseUrl, dataDir));
        props.putAll(extra);
        ApplicationContext context = ApplicationContext.builder().properties(props).environments("test").start();
        EmbeddedServer server = context.getBean(EmbeddedServer.class);
        server.start();
        return new TestServer(context, databaseUrl, dataDir);
    }

    /** The properties a server needs to run on {@code databaseUrl} with data in {@code dataDir}. */
    public static Map<String, Object> properties(String databaseUrl, Path dataDir) {
        Path model = modelFolder(dataDir, BASE_MODEL);
        Path other = modelFolder(dataDir, OTHER_BASE_MODEL);
        return Map.ofEntries(
                Map.entry("micronaut.server.port", -1),
                Map.entry("datasources.default.url", databaseUrl),
                Map.entry("datasources.default.username", "postgres"),
                Map.entry("datasources.default.password", ""),
                Map.entry("crucible.data-dir", dataDir.toString()),
                Map.entry("crucible.model-specs", List.of(BASE_MODEL + "=" + model, OTHER_BASE_MODEL + "=" + other)),
                Map.entry("crucible.runner.poll-interval", "50ms"),
                Map.entry("crucible.runner.heartbeat-interval", "200ms"),
                Map.entry("crucible.runner.stale-after", "2s"),
                Map.entry("crucible.process.heartbeat-interval", "200ms"),
                Map.entry("crucible.process.stale-after", "2s"));
    }

    /**
     * A real tiny model (random weights, trained tokenizer, chat template) in each data folder. Training the tokenizer
     * and drawing the weights cost about half a CPU second per model, and the same seed gives the same files, so each
     * model is written once per test JVM and copied into the data folders, {@code config.json} last, as
     * {@link TinyModel#write} does.
     */
    private static Path modelFolder(Path dataDir, String name) {
        Path model = dataDir.resolve("models").resolve(name);
        if (!Files.exists(model.resolve("config.json"))) {
            try {
                Path written = written(name);
                Files.createDirectories(model);
                try (Stream<Path> files = Files.list(written)) {
                    for (Path file : files.filter(f -> !f.getFileName().toString().equals("config.json")).toList()) {
                        Files.copy(file, model.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                    }
                }
                Path config = model.resolve("config.json.tmp");
                Files.copy(written.resolve("config.json"), config, StandardCopyOption.REPLACE_EXISTING);
                Files.move(config, model.resolve("config.json"), StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return model;
    }

    private static synchronized Path written(String name) throws IOException {
        Path model = WRITTEN.get(name);
        if (model == null) {
            model = newDataDir().resolve(name);
            TinyModel.write(name.equals(BASE_MODEL) ? Architecture.QWEN3 : Architecture.QWEN2, model, 7);
            WRITTEN.put(name, model);
        }
        return model;
    }

    public static Path newDataDir() {
        try {
            return Files.createTempDirectory("crucible-test-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Registers a new API key for {@code entity} and returns it. */
    public String newKey(String entity) {
        return context.getBean(IssueApiKeyUseCase.class).issue(new EntityName(entity)).value();
    }

    /**
     * A client of this server with {@code key} (null for none). Every answer it gets is held to the server's own
     * OpenAPI document ({@link OpenApiContract}, lenient about undocumented routes); {@link #close()} fails the test
     * when one broke it, so each integration test also checks the document.
     */
    public Api api(String key) {
        return new Api(server.getURL().toString(), key).observedBy(contract());
    }

    private synchronized OpenApiContract contract() {
        if (contract == null) {
            Api.Reply document = new Api(server.getURL().toString(), null).get("/openapi.json");
            if (document.status() != 200) {
                throw new IllegalStateException("no OpenAPI document: " + document);
            }
            contract = new OpenApiContract(document.json(), false);
        }
        return contract;
    }

    public String url() {
        return server.getURL().toString();
    }

    public String databaseUrl() {
        return databaseUrl;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** The folder of checkpoint {@code step} of model {@code modelId}, from the blob store; empty when it has none. */
    public Optional<Path> adapterFolder(String modelId, int step) {
        return bean(AdapterFiles.class).stepFolder(new ModelId(UUID.fromString(modelId)), step);
    }

    /** Stores the adapter files that {@code writer} writes into a folder as checkpoint {@code step}'s. */
    public void writeAdapter(String modelId, int step, Consumer<Path> writer) {
        bean(AdapterFiles.class).writeStep(new ModelId(UUID.fromString(modelId)), step, writer);
    }

    public <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    @Override
    public void close() {
        context.close();
        List<String> broken = contract == null ? List.of() : contract.violations();
        if (!broken.isEmpty()) {
            throw new AssertionError("answers that broke the OpenAPI document:\n" + String.join("\n", broken));
        }
    }
}

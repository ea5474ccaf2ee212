package dev.crucible.server.cli;

import dev.crucible.server.database.EmbeddedDatabase;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.Micronaut;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code crucible serve}: starts the HTTP server, the job runner and (by default) the embedded database. */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Start the Crucible server.")
final class ServeCommand implements Callable<Integer> {

    @Mixin
    DatabaseOptions database;

    @Option(names = "--port", defaultValue = "${env:CRUCIBLE_PORT:-8000}", description = "HTTP port (env CRUCIBLE_PORT; default 8000).")
    int port;

    @Option(names = "--host", defaultValue = "${env:CRUCIBLE_HOST:-127.0.0.1}",
            description = "Address to listen on (env CRUCIBLE_HOST; default 127.0.0.1, this machine only). "
                    + "0.0.0.0 listens on every interface.")
    String host;

    @Option(names = "--model", split = ",", defaultValue = "${env:CRUCIBLE_MODELS}",
            description = "A base model to serve, NAME=PATH of a Hugging Face folder; repeatable (env CRUCIBLE_MODELS, "
                    + "comma-separated). Without any, a tiny random-weight Qwen3 model is made in the data directory "
                    + "on first start and served as " + DefaultModel.NAME + ".")
    List<String> models;

    @Option(names = "--engine", defaultValue = "${env:CRUCIBLE_ENGINE}", description = "Engine plugin to use (default: all installed).")
    String engine;

    @Override
    public Integer call() throws InterruptedException {
        EmbeddedDatabase embedded = database.openEmbeddedIfNeeded();
        Map<String, Object> props = new HashMap<>(database.properties(embedded));
        props.put("micronaut.server.port", port);
        props.put("micronaut.server.host", host);
        props.put("crucible.model-specs", models == null || models.isEmpty()
                ? List.of(DefaultModel.ensure(database.dataDir)) : models);
        if (engine != null) {
            props.put("crucible.engine", engine);
        }
        String key = System.getenv("CRUCIBLE_API_KEY");
        if (key != null && !key.isBlank()) {
            props.put("crucible.bootstrap.api-key", key.strip());
            props.put("crucible.bootstrap.entity", System.getenv().getOrDefault("CRUCIBLE_ENTITY", "default"));
        }
        ApplicationContext context = Micronaut.build(new String[0]).mainClass(ServeCommand.class).properties(props).start();
        CountDownLatch stopped = new CountDownLatch(1);
        // Micronaut's own shutdown hook stops the server and the context; closing the context from this hook as well
        // deadlocked the two on their locks (SIGTERM never ended the process). This hook only waits for that stop,
        // then closes the embedded database, which must outlive the beans that use it.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            awaitStop(context, SHUTDOWN_LIMIT);
            if (embedded != null) {
                embedded.close();
            }
            stopped.countDown();
        }, "crucible-shutdown"));
        stopped.await();
        return 0;
    }

    static final Duration SHUTDOWN_LIMIT = Duration.ofSeconds(30);

    private static void awaitStop(ApplicationContext context, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (context.isRunning() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}

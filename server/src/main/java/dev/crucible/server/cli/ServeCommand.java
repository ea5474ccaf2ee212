package dev.crucible.server.cli;

import dev.crucible.application.process.ProcessRole;
import dev.crucible.server.database.EmbeddedDatabase;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code crucible serve}: starts the HTTP server, the job runner (unless its role is {@code api}) and (by default) the
 * embedded database.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Start the Crucible server.")
final class ServeCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

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

    @Option(names = "--model-precision", split = ",", defaultValue = "${env:CRUCIBLE_MODEL_PRECISIONS}",
            description = "How a served model's weights are computed, NAME=f32, NAME=int8 or NAME=int4 (quantised at load; the "
                    + "onnx engine); repeatable (env CRUCIBLE_MODEL_PRECISIONS, comma-separated). Default: the "
                    + "engine's, f32 unless -Dcrucible.onnx.precision says otherwise.")
    List<String> modelPrecisions;

    @Option(names = "--model-scheduling", split = ",", defaultValue = "${env:CRUCIBLE_MODEL_SCHEDULING}",
            description = "How a served model orders its waiting requests, NAME=fcfs or NAME=priority (lower priority "
                    + "values first); repeatable (env CRUCIBLE_MODEL_SCHEDULING, comma-separated). Default: fcfs, "
                    + "which refuses a request's non-zero priority.")
    List<String> modelScheduling;

    @Option(names = "--engine", defaultValue = "${env:CRUCIBLE_ENGINE}", description = "Engine plugin to use (default: all installed).")
    String engine;

    @Option(names = "--inference-engine", defaultValue = "${env:CRUCIBLE_INFERENCE_ENGINE}",
            description = "Engine that serves base models: djl or onnx (env CRUCIBLE_INFERENCE_ENGINE; default: the "
                    + "first installed in the order onnx, djl that loads the model). Training always runs on an engine that can train.")
    String inferenceEngine;

    @Option(names = "--role", defaultValue = "${env:CRUCIBLE_ROLE:-all}",
            description = "What this process does when several share one database (env CRUCIBLE_ROLE; default all): "
                    + "all serves the API and trains; api serves the API and never trains; worker trains and serves "
                    + "only /v1/health, /v1/health/ready, /v1/system-check and /metrics. See docs/deploy.md.")
    String role;

    @Option(names = "--blob-store", defaultValue = "${env:CRUCIBLE_BLOB_STORE:-local}",
            description = "Where uploaded files, adapters and optimiser state live: local (the data directory) or "
                    + "s3://BUCKET[/PREFIX] (env CRUCIBLE_BLOB_STORE; default local). S3's endpoint, region and "
                    + "path-style addressing come from CRUCIBLE_S3_ENDPOINT, CRUCIBLE_S3_REGION (else AWS_REGION, else "
                    + "us-east-1) and CRUCIBLE_S3_PATH_STYLE; credentials from the AWS SDK's default chain.")
    String blobStore;

    @Option(names = "--shutdown-grace-seconds", defaultValue = "${env:CRUCIBLE_SHUTDOWN_GRACE_SECONDS:-25}",
            description = "On SIGTERM, how long requests in flight and the running training job get to finish before "
                    + "the process stops anyway (env CRUCIBLE_SHUTDOWN_GRACE_SECONDS; default 25).")
    int shutdownGraceSeconds;

    @Override
    public Integer call() throws InterruptedException {
        EmbeddedDatabase embedded = database.openEmbeddedIfNeeded();
        Map<String, Object> props = new HashMap<>(database.properties(embedded));
        props.put("micronaut.server.port", port);
        props.put("micronaut.server.host", host);
        props.put("crucible.role", ProcessRole.parse(role).wireName());
        props.put("crucible.model-specs", models == null || models.isEmpty()
                ? List.of(DefaultModel.ensure(database.dataDir)) : models);
        if (modelPrecisions != null && !modelPrecisions.isEmpty()) {
            props.put("crucible.model-precisions", modelPrecisions);
        }
        if (modelScheduling != null && !modelScheduling.isEmpty()) {
            props.put("crucible.model-scheduling", modelScheduling);
        }
        if (engine != null) {
            props.put("crucible.engine", engine);
        }
        if (inferenceEngine != null) {
            props.put("crucible.inference-engine", inferenceEngine);
        }
        props.putAll(BlobStoreOptions.properties(blobStore, System.getenv()));
        String key = System.getenv("CRUCIBLE_API_KEY");
        if (key != null && !key.isBlank()) {
            props.put("crucible.bootstrap.api-key", key.strip());
            props.put("crucible.bootstrap.entity", System.getenv().getOrDefault("CRUCIBLE_ENTITY", "default"));
        }
        ApplicationContext context = null;
        EmbeddedServer server;
        try {
            // Not Micronaut.run: its own shutdown hook would stop the server at once, cutting off requests in flight.
            var builder = ApplicationContext.builder().mainClass(ServeCommand.class).properties(props);
            if (embedded != null) {
                // Its restarts are a metric (EmbeddedDatabaseMeters); this process still stops it, last.
                builder.singletons(embedded);
            }
            context = builder.start();
            server = context.getBean(EmbeddedServer.class).start();
        } catch (RuntimeException e) {
            if (context != null) {
                context.close();
            }
            if (embedded != null) {
                embedded.close();
            }
            throw e;
        }
        LOG.info("Crucible serves on {}", server.getURL());
        ApplicationContext running = context;
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            GracefulStop.run(running, server, embedded, Duration.ofSeconds(Math.max(0, shutdownGraceSeconds)));
            stopped.countDown();
        }, "crucible-shutdown"));
        stopped.await();
        return 0;
    }
}

package dev.crucible.server.cli;

import dev.crucible.application.job.JobRunnerLoop;
import dev.crucible.server.database.EmbeddedDatabase;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.graceful.GracefulShutdownCapable;
import io.micronaut.runtime.server.EmbeddedServer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What SIGTERM does to {@code crucible serve}, in this order:
 * <ol>
 *   <li>the HTTP server stops listening (new connections are refused) and closes idle connections, while the
 *       requests in flight go on; at the same time the job runner claims nothing more and asks the running training
 *       job to stop, which then goes back to the queue ({@code QUEUED}, its {@code training_requeued} event) for the
 *       next runner, in another worker or in this process after a restart;</li>
 *   <li>both are awaited up to the grace period; a job still training then is handed back without its trainer,
 *       and requests still unanswered are cut off;</li>
 *   <li>the application context closes (server, beans, connection pool);</li>
 *   <li>the embedded PostgreSQL stops, last, when this process started it.</li>
 * </ol>
 * It runs on the process's only shutdown hook: a second hook closing the same context deadlocked with the first.
 */
final class GracefulStop {

    private static final Logger LOG = LoggerFactory.getLogger(GracefulStop.class);

    private GracefulStop() {
    }

    static void run(ApplicationContext context, EmbeddedServer server, EmbeddedDatabase embedded, Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        LOG.info("Stopping: new connections are refused; requests in flight and the running training job get up to {}",
                grace);
        try {
            CompletableFuture<?> requests = server instanceof GracefulShutdownCapable capable
                    ? capable.shutdownGracefully().toCompletableFuture()
                    : CompletableFuture.completedFuture(null);
            if (!context.getBean(JobRunnerLoop.class).stop(grace)) {
                LOG.warn("The running training job did not stop within {}; it was handed back to the queue", grace);
            }
            requests.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            LOG.info("Every request in flight was answered");
        } catch (TimeoutException e) {
            LOG.warn("Requests still in flight after {} are cut off", grace);
        } catch (ExecutionException | RuntimeException e) {
            LOG.warn("Graceful stop failed, stopping at once", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly(context);
            if (embedded != null) {
                embedded.close();
            }
            LOG.info("Stopped");
        }
    }

    private static void closeQuietly(ApplicationContext context) {
        try {
            if (context.isRunning()) {
                context.close();
            }
        } catch (RuntimeException e) {
            LOG.warn("The application did not close cleanly", e);
        }
    }
}

package dev.crucible.server.tinker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Cluster;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.database.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Tinker API on an {@code api} process with the runs on a {@code worker} (docs/decisions.md, "Tinker runs on
 * workers"): one embedded PostgreSQL and one shared data directory (the local blob store), the api in this JVM and
 * each worker a JVM of its own ({@link Cluster}). A supervised loop submitted to the api back to back
 * ({@code forward_backward}, {@code optim_step}, ..., {@code save_weights_for_sampler}) runs on the worker, its futures
 * answer on the api, and the api samples the weights the worker saved. Then the worker is killed with -9 with
 * operations queued: each accepted operation answers; the one the dead worker had taken (if it had not finished)
 * fails with category {@code server}; the rest run on the next worker, which continues from the run's last saved
 * state: a {@code forward} there scores as it scored right after that save.
 */
class TinkerWorkersIT {

    private static final int[] TAUGHT = {21, 22, 23, 24, 25, 26, 27, 28, 29, 30};
    /** The same weights scored by the same engine in two processes. */
    private static final double SAME = 1e-4;

    @Test
    void anApiQueuesAWorkerRunsAndTheNextWorkerContinuesFromTheLastSave() throws Exception {
        String database = TestDatabase.freshDatabase();
        Path dataDir = TestServer.newDataDir();
        try (TestServer api = TestServer.start(database, dataDir, Map.of("crucible.role", "api"));
                Cluster workers = new Cluster(database, dataDir).withArgs("--model", TestServer.BASE_MODEL + "="
                        + dataDir.resolve("models").resolve(TestServer.BASE_MODEL))) {
            Map<String, String> fast = Map.of("crucible.primitives.run-lease", "2s",
                    "crucible.primitives.claim-poll-interval", "100ms");
            Cluster.Member first = workers.start("worker", fast);
            TinkerClient tinker = new TinkerClient(api, api.newKey("wanda"));
            String model = tinker.createModel(TestServer.BASE_MODEL, 8);

            // The supervised loop, pipelined: every operation is queued before the first answer is read.
            List<String> losses = new ArrayList<>();
            List<String> steps = new ArrayList<>();
            for (int step = 0; step < 6; step++) {
                losses.add(tinker.submit("forward_backward", TinkerClient.forwardBackward(model, tinker.nextSeq(),
                        "cross_entropy", List.of(TinkerClient.teaching(TAUGHT)))));
                steps.add(tinker.submit("optim_step", TinkerClient.optimStep(model, tinker.nextSeq(), 0.02)));
            }
            String saved = tinker.submit("save_weights_for_sampler", Map.of("model_id", model, "path", "s1",
                    "seq_id", tinker.nextSeq()));
            List<Double> loss = losses.stream().map(id -> ((Number) ((Map<?, ?>) tinker.await(id).get("metrics"))
                    .get("loss:sum")).doubleValue()).toList();
            steps.forEach(id -> assertTrue(tinker.await(id).containsKey("metrics"), id));
            assertTrue(loss.getLast() < loss.getFirst(), "the worker trained: " + loss);
            String path = (String) tinker.await(saved).get("path");
            assertEquals("tinker://" + model + "/sampler_weights/s1", path);

            String sampler = tinker.post("create_sampling_session", Map.of("sampling_session_seq_id", 0,
                    "model_path", path)).text("sampling_session_id");
            Map<String, Object> sampled = tinker.await(tinker.submit("asample", TinkerClient.sample(sampler, 0,
                    List.of(21, 22, 23), Map.of("max_tokens", 4, "temperature", 0.0), false)));
            assertEquals(4, ((List<?>) ((Map<?, ?>) ((List<?>) sampled.get("sequences")).getFirst()).get("tokens"))
                    .size(), "the api samples the weights the worker saved: " + sampled);

            // What the run scores right after its last save (a forward changes no weight).
            List<Double> atSave = tinker.forwardLogprobs(model, tinker.nextSeq(), TAUGHT);

            // kill -9 with operations queued: one is taken (maybe running), the rest wait in the log.
            List<Map<String, Object>> batch = TinkerClient.heavyBatch();
            List<String> accepted = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                accepted.add(tinker.submit("forward_backward", TinkerClient.forwardBackward(model, tinker.nextSeq(),
                        "cross_entropy", batch)));
                if (i == 0) {
                    tinker.await(accepted.getFirst());
                }
            }
            first.kill();
            first.awaitExit(Duration.ofSeconds(30));
            Cluster.Member next = workers.start("worker", fast);

            int[] counts = tinker.doneOrServerFailures(accepted);
            int done = counts[0];
            int failed = counts[1];
            assertTrue(failed <= 1, "only the operation the dead worker had taken fails: " + failed + " of "
                    + accepted.size() + "\n" + next.logTail());
            assertTrue(done >= accepted.size() - 1);

            // The next worker holds the run from its last saved state: no optim_step since, so it scores the same.
            List<Double> after = tinker.forwardLogprobs(model, tinker.nextSeq(), TAUGHT);
            assertEquals(atSave.size(), after.size());
            for (int i = 0; i < after.size(); i++) {
                assertEquals(atSave.get(i), after.get(i), SAME, "position " + i + ": " + atSave + " vs " + after);
            }
            Map<String, Object> stepped = tinker.await(tinker.submit("optim_step", TinkerClient.optimStep(model,
                    tinker.nextSeq(), 0.02)));
            assertTrue(stepped.containsKey("metrics"), "the run goes on training: " + stepped);
            assertNotEquals(atSave, tinker.forwardLogprobs(model, tinker.nextSeq(), TAUGHT));
            System.out.println("tinker workers: after kill -9, " + done + " operations were done and " + failed
                    + " failed as the server's");
        }
    }
}

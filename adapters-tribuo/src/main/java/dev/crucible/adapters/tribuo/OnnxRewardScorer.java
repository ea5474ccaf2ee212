package dev.crucible.adapters.tribuo;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.crucible.application.reward.RewardArtifact;
import dev.crucible.application.reward.RewardScorer;
import dev.crucible.domain.reward.RewardItem;
import dev.crucible.domain.reward.RewardModelId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Scores pairs with ONNX Runtime from a model's exported bytes: {@link TribuoTextFeatures} of each pair, placed in the
 * model's input columns (features it never saw are dropped, as Tribuo drops them), a dense float batch of at most
 * {@value #BATCH} rows per run, the good label's probability read from the output. Sessions of stored models are kept
 * in an LRU of at most {@code maxSessions}; one evicted while in use is closed by its last user. Thread-safe.
 */
public final class OnnxRewardScorer implements RewardScorer, AutoCloseable {

    /** Rows per ONNX Runtime run: a batch's input is at most this many times the features' count in floats. */
    static final int BATCH = 64;

    private final OrtEnvironment environment = OrtEnvironment.getEnvironment();
    private final int maxSessions;
    private final LinkedHashMap<RewardModelId, Loaded> sessions = new LinkedHashMap<>(16, 0.75f, true);

    /** @param maxSessions how many stored models' sessions to keep open, at least 1 */
    public OnnxRewardScorer(int maxSessions) {
        if (maxSessions < 1) {
            throw new IllegalArgumentException("maxSessions must be >= 1, got " + maxSessions);
        }
        this.maxSessions = maxSessions;
    }

    @Override
    public List<Double> score(RewardArtifact artifact, List<RewardItem> items) {
        Loaded loaded = load(artifact);
        try {
            return loaded.score(items);
        } finally {
            loaded.evict();
        }
    }

    @Override
    public List<Double> score(RewardModelId id, Supplier<RewardArtifact> artifact, List<RewardItem> items) {
        Loaded loaded = acquire(id, artifact);
        try {
            return loaded.score(items);
        } finally {
            release(loaded);
        }
    }

    @Override
    public void forget(RewardModelId id) {
        synchronized (sessions) {
            Loaded gone = sessions.remove(id);
            if (gone != null) {
                gone.evict();
            }
        }
    }

    @Override
    public void close() {
        synchronized (sessions) {
            sessions.values().forEach(Loaded::evict);
            sessions.clear();
        }
    }

    /** The number of sessions kept now. */
    int kept() {
        synchronized (sessions) {
            return sessions.size();
        }
    }

    private Loaded acquire(RewardModelId id, Supplier<RewardArtifact> artifact) {
        synchronized (sessions) {
            Loaded held = sessions.get(id);
            if (held != null) {
                held.users++;
                return held;
            }
        }
        // Built outside the lock: loading one model never holds up scoring with another.
        Loaded built = load(artifact.get());
        synchronized (sessions) {
            Loaded raced = sessions.get(id);
            if (raced != null) {
                built.evict();
                raced.users++;
                return raced;
            }
            built.users++;
            sessions.put(id, built);
            if (sessions.size() > maxSessions) {
                var eldest = sessions.entrySet().iterator().next();
                sessions.remove(eldest.getKey());
                eldest.getValue().evict();
            }
            return built;
        }
    }

    private void release(Loaded loaded) {
        synchronized (sessions) {
            loaded.users--;
            if (loaded.evicted && loaded.users == 0) {
                loaded.closeSession();
            }
        }
    }

    private Loaded load(RewardArtifact artifact) {
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(1);
            OrtSession session = environment.createSession(artifact.onnx(), options);
            Map<String, Integer> columns = new HashMap<>();
            for (int i = 0; i < artifact.featureNames().size(); i++) {
                columns.put(artifact.featureNames().get(i), i);
            }
            return new Loaded(session, session.getInputNames().iterator().next(), columns, artifact.positiveColumn());
        } catch (OrtException e) {
            throw new IllegalStateException("ONNX Runtime cannot load a stored reward model", e);
        }
    }

    /** An open session and the columns of its input; {@code users} and {@code evicted} are guarded by the cache. */
    private final class Loaded {

        private final OrtSession session;
        private final String input;
        private final Map<String, Integer> columns;
        private final int positiveColumn;
        private int users;
        private boolean evicted;

        Loaded(OrtSession session, String input, Map<String, Integer> columns, int positiveColumn) {
            this.session = session;
            this.input = input;
            this.columns = columns;
            this.positiveColumn = positiveColumn;
        }

        List<Double> score(List<RewardItem> items) {
            TribuoTextFeatures features = new TribuoTextFeatures();
            List<Double> scores = new ArrayList<>(items.size());
            for (int from = 0; from < items.size(); from += BATCH) {
                List<RewardItem> batch = items.subList(from, Math.min(items.size(), from + BATCH));
                float[][] rows = new float[batch.size()][columns.size()];
                for (int r = 0; r < batch.size(); r++) {
                    for (var feature : features.of(batch.get(r).prompt(), batch.get(r).answer()).entrySet()) {
                        Integer column = columns.get(feature.getKey());
                        if (column != null) {
                            rows[r][column] = feature.getValue().floatValue();
                        }
                    }
                }
                run(rows, scores);
            }
            return scores;
        }

        private void run(float[][] rows, List<Double> scores) {
            try (OnnxTensor tensor = OnnxTensor.createTensor(environment, rows);
                    OrtSession.Result result = session.run(Map.of(input, tensor))) {
                float[][] probabilities = (float[][]) result.get(0).getValue();
                for (float[] row : probabilities) {
                    scores.add((double) row[positiveColumn]);
                }
            } catch (OrtException e) {
                throw new IllegalStateException("ONNX Runtime failed to score with a reward model", e);
            }
        }

        /** Marks it out of the cache; closes it now when nobody uses it. Called under the cache's lock. */
        void evict() {
            evicted = true;
            if (users == 0) {
                closeSession();
            }
        }

        void closeSession() {
            try {
                session.close();
            } catch (OrtException e) {
                throw new IllegalStateException("ONNX Runtime cannot close a reward model's session", e);
            }
        }
    }
}

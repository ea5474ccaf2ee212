package dev.crucible.adapters.tribuo;

import dev.crucible.application.reward.RewardArtifact;
import dev.crucible.application.reward.RewardTrainer;
import dev.crucible.domain.reward.RewardExample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.tribuo.ImmutableFeatureMap;
import org.tribuo.MutableDataset;
import org.tribuo.classification.Label;
import org.tribuo.classification.LabelFactory;
import org.tribuo.classification.sgd.linear.LinearSGDModel;
import org.tribuo.classification.sgd.linear.LinearSGDTrainer;
import org.tribuo.classification.sgd.objectives.LogMulticlass;
import org.tribuo.impl.ArrayExample;
import org.tribuo.math.optimisers.AdaGrad;
import org.tribuo.provenance.SimpleDataSourceProvenance;

/**
 * Fits a reward model with Tribuo: {@link TribuoTextFeatures} of each example, a logistic regression (Tribuo's
 * {@code LogisticRegressionTrainer} configuration, log loss over two labels with AdaGrad at rate 1.0 and epsilon 0.1,
 * minibatch 1, built through {@link LinearSGDTrainer} so that the epochs and the seed are ours), exported to ONNX with
 * Tribuo's exporter ({@code exportONNXModel}). Thread-safe: every fit builds its own trainer.
 */
public final class TribuoRewardTrainer implements RewardTrainer {

    static final String GOOD = "good";
    static final String BAD = "bad";
    private static final String ONNX_DOMAIN = "dev.crucible.reward";
    /** Tribuo logs its progress every this many examples: never, for fits of bounded size. */
    private static final int LOGGING_INTERVAL = Integer.MAX_VALUE;

    @Override
    public RewardArtifact fit(List<RewardExample> train, int epochs, long seed) {
        return export(train(train, epochs, seed));
    }

    @Override
    public String features() {
        return TribuoTextFeatures.DESCRIPTION;
    }

    @Override
    public String algorithm() {
        return "logistic regression (Tribuo 4.3 LinearSGDTrainer, LogMulticlass, AdaGrad(1.0, 0.1), minibatch 1, "
                + "seeded) exported to ONNX, scored by ONNX Runtime";
    }

    /** The Tribuo model fitted on {@code train}. */
    LinearSGDModel train(List<RewardExample> train, int epochs, long seed) {
        LabelFactory labels = new LabelFactory();
        MutableDataset<Label> dataset = new MutableDataset<>(new SimpleDataSourceProvenance("reward examples", labels),
                labels);
        TribuoTextFeatures features = new TribuoTextFeatures();
        for (RewardExample example : train) {
            dataset.add(example(new Label(example.positive() ? GOOD : BAD),
                    features.of(example.prompt(), example.answer())));
        }
        var trainer = new LinearSGDTrainer(new LogMulticlass(), new AdaGrad(1.0, 0.1), epochs, LOGGING_INTERVAL, 1,
                seed);
        return trainer.train(dataset, Map.of(), 0);
    }

    /** {@code model} as ONNX bytes, its features in input-column order and the column of the good label. */
    RewardArtifact export(LinearSGDModel model) {
        ImmutableFeatureMap map = model.getFeatureIDMap();
        List<String> names = new ArrayList<>(map.size());
        for (int id = 0; id < map.size(); id++) {
            names.add(map.get(id).getName());
        }
        byte[] onnx = model.exportONNXModel(ONNX_DOMAIN, 1).toByteArray();
        return new RewardArtifact(onnx, names, model.getOutputIDInfo().getID(new Label(GOOD)));
    }

    /** A Tribuo example of {@code features}, for fitting (with its label) or for Tribuo's own predictions. */
    static ArrayExample<Label> example(Label label, SortedMap<String, Double> features) {
        String[] names = features.keySet().toArray(String[]::new);
        double[] values = features.values().stream().mapToDouble(Double::doubleValue).toArray();
        return new ArrayExample<>(label, names, values);
    }
}

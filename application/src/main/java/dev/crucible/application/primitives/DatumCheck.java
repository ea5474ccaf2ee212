package dev.crucible.application.primitives;

import dev.crucible.engine.spi.TrainingSequence;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.runtime.training.loss.LossFunction;
import dev.crucible.runtime.training.loss.LossInputs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Checks a {@code forward_backward} call against the model it trains, before it is accepted: a known loss and its
 * settings; at least one datum and at most {@code maxDatums}; each datum's tokens within the vocabulary and the
 * context; each loss input one the loss reads, one-dimensional, of its dtype and as long as the datum's input. A
 * refusal names the offending field under {@code prefix} ({@code forward_backward_input}).
 */
record DatumCheck(int vocabSize, int maxPositions, int maxDatums) {

    private static final String TARGETS = "target_tokens";

    Outcome<PreparedBatch> prepare(ForwardBackwardInput input, String prefix) {
        try {
            return Outcome.done(check(input, prefix));
        } catch (RefusalException refused) {
            return Outcome.refused(refused.refusal());
        }
    }

    private PreparedBatch check(ForwardBackwardInput input, String prefix) {
        LossFunction function = LossFunction.named(input.lossFn()).orElseThrow(() -> invalid(prefix + ".loss_fn",
                "loss_fn '" + input.lossFn() + "' is not known; known: " + Arrays.stream(LossFunction.values())
                        .map(LossFunction::wireName).toList()));
        Map<String, Double> config = switch (function.configure(input.lossFnConfig())) {
            case Outcome.Done<Map<String, Double>> done -> done.value();
            case Outcome.Refused<Map<String, Double>> refused -> throw new RefusalException(new Refusal(
                    refused.refusal().reason(), refused.refusal().message(),
                    prefix + "." + refused.refusal().param()));
        };
        if (input.data().isEmpty()) {
            throw invalid(prefix + ".data", "data must hold at least one datum");
        }
        if (input.data().size() > maxDatums) {
            throw new RefusalException(new Refusal(Refusal.Reason.TOO_LARGE, "data holds " + input.data().size()
                    + " datums, the most one call may is " + maxDatums + " (setting crucible.primitives.max-datums)",
                    prefix + ".data"));
        }
        List<TrainingSequence> sequences = new ArrayList<>();
        List<LossInputs> inputs = new ArrayList<>();
        for (int d = 0; d < input.data().size(); d++) {
            String at = prefix + ".data[" + d + "]";
            Datum datum = input.data().get(d);
            int[] tokens = datum.modelInput();
            if (tokens.length == 0) {
                throw invalid(at + ".model_input", "model_input must hold at least one token");
            }
            if (tokens.length + 1 > maxPositions) {
                throw invalid(at + ".model_input", "model_input holds " + tokens.length + " tokens; with its last "
                        + "target that passes the model's " + maxPositions + " positions");
            }
            checkVocabulary(at + ".model_input", tokens);
            Map<String, Tensor> named = datum.lossFnInputs();
            for (String name : named.keySet()) {
                if (!function.inputs().contains(name)) {
                    throw invalid(at + ".loss_fn_inputs." + name, "loss_fn " + function.wireName() + " takes no input '"
                            + name + "'; it takes " + new TreeSet<>(function.inputs()));
                }
            }
            for (String name : function.inputs()) {
                if (!named.containsKey(name)) {
                    throw invalid(at + ".loss_fn_inputs." + name, "loss_fn " + function.wireName() + " needs input '"
                            + name + "'");
                }
                checkShape(at + ".loss_fn_inputs." + name, named.get(name), tokens.length, name.equals(TARGETS));
            }
            int[] targets = targets(at + ".loss_fn_inputs." + TARGETS, (Tensor.Ints) named.get(TARGETS));
            sequences.add(TrainingSequence.predicting(tokens, targets));
            inputs.add(new LossInputs(floats(named.get("weights")), floats(named.get("advantages")),
                    floats(named.get("logprobs"))));
        }
        return new PreparedBatch(function, config, sequences, inputs, input.forwardOnly());
    }

    private static void checkShape(String at, Tensor tensor, int length, boolean tokens) {
        if (tokens != (tensor instanceof Tensor.Ints)) {
            throw invalid(at, at.substring(at.lastIndexOf('.') + 1) + " must be " + (tokens ? "int64" : "float32")
                    + " values");
        }
        if (tensor.shape().length != 1 || tensor.size() != length) {
            throw invalid(at, "must be one value per position of model_input (shape [" + length + "]), got shape "
                    + Arrays.toString(tensor.shape()));
        }
        if (tensor instanceof Tensor.Floats f) {
            for (float v : f.values()) {
                if (!Float.isFinite(v)) {
                    throw invalid(at, "values must be finite, got " + v);
                }
            }
        }
    }

    private int[] targets(String at, Tensor.Ints tensor) {
        long[] values = tensor.values();
        int[] out = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            if (values[i] < 0 || values[i] >= vocabSize) {
                throw invalid(at, "token id " + values[i] + " at position " + i + " is outside the vocabulary [0, "
                        + vocabSize + ")");
            }
            out[i] = (int) values[i];
        }
        return out;
    }

    private void checkVocabulary(String at, int[] tokens) {
        for (int i = 0; i < tokens.length; i++) {
            if (tokens[i] < 0 || tokens[i] >= vocabSize) {
                throw invalid(at, "token id " + tokens[i] + " at position " + i + " is outside the vocabulary [0, "
                        + vocabSize + ")");
            }
        }
    }

    private static float[] floats(Tensor tensor) {
        return tensor instanceof Tensor.Floats f ? f.values() : null;
    }

    private static RefusalException invalid(String param, String message) {
        return new RefusalException(Refusal.invalid(param, message));
    }
}

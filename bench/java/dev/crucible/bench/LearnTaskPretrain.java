package dev.crucible.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * {@code bench/learn-task}'s first part: makes the model from scratch. Trains a {@link LearnTaskModel} full-parameter
 * on the addition language ({@code a+b=sum<|im_end|>}, the loss on the answer and its end) for a fixed number of
 * steps, deliberately too few for the task to be mastered, measures greedy exact-match accuracy on the held-out
 * problems in process, and writes the Hugging Face folder with a {@code pretrain.json} summary beside it.
 *
 * <p>The language may be noisy, as text written by people is: with probability {@code noise} a pretraining answer
 * is the sum with every carry forgotten ({@code 58+67=15} instead of {@code 125}), the commonest slip in written
 * addition. Such a model knows both answers and picks between them, which is what RL with an exact-answer reward is
 * for; SFT and RL see only correct answers and rewards.
 *
 * <p>Usage: {@code LearnTaskPretrain <out dir> <seed> <digits> <hidden> <layers> <steps> <batch> <learning rate>
 * <held-out count> [noise, default 0]}
 */
public final class LearnTaskPretrain {

    private LearnTaskPretrain() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        long seed = Long.parseLong(args[1]);
        AdditionTask task = new AdditionTask(Integer.parseInt(args[2]));
        int hidden = Integer.parseInt(args[3]);
        int layers = Integer.parseInt(args[4]);
        int steps = Integer.parseInt(args[5]);
        int batch = Integer.parseInt(args[6]);
        double learningRate = Double.parseDouble(args[7]);
        List<AdditionTask.Problem> heldOut = task.heldOut(Integer.parseInt(args[8]), seed + 1);
        AdditionTask.Source source = task.training(heldOut, seed + 2);
        double noise = args.length > 9 ? Double.parseDouble(args[9]) : 0.0;
        Random slips = new Random(seed + 4);
        long start = System.nanoTime();
        List<Double> losses = new ArrayList<>();
        try (LearnTaskModel model = new LearnTaskModel(hidden, layers, seed)) {
            System.err.printf(Locale.ROOT, "pretrain: %d parameters, %d steps of %d problems%n", model.parameters(),
                    steps, batch);
            for (int step = 0; step < steps; step++) {
                // linear warm-up over the first 5%, then linear decay to a tenth
                double warm = Math.min(1.0, (step + 1) / Math.max(1.0, steps * 0.05));
                double lr = learningRate * warm * (1.0 - 0.9 * step / (double) steps);
                Batch b = batch(source.next(batch), noise, slips);
                double loss = model.step(b.ids, b.weights, lr);
                losses.add(loss);
                if ((step + 1) % 50 == 0 || step == 0) {
                    System.err.printf(Locale.ROOT, "pretrain: step %d loss %.4f (%.0f s)%n", step + 1, loss,
                            (System.nanoTime() - start) / 1e9);
                }
            }
            double accuracy = accuracy(model, heldOut);
            double seconds = (System.nanoTime() - start) / 1e9;
            System.err.printf(Locale.ROOT, "pretrain: held-out greedy accuracy %.3f after %.0f s%n", accuracy,
                    seconds);
            model.write(out);
            Files.writeString(out.resolve("pretrain.json"), String.format(Locale.ROOT,
                    "{\"parameters\":%d,\"noise\":%s,\"steps\":%d,\"batch\":%d,\"learning_rate\":%s,\"seconds\":%.1f,"
                            + "\"heldout_accuracy_in_process\":%.4f,\"loss\":%s}%n",
                    model.parameters(), noise, steps, batch, learningRate, seconds, accuracy,
                    losses.stream().map(l -> String.format(Locale.ROOT, "%.4f", l)).toList()));
        }
    }

    /** Greedy exact-match accuracy, computed with the training forward (no server). */
    static double accuracy(LearnTaskModel model, List<AdditionTask.Problem> problems) {
        List<int[]> prompts = problems.stream()
                .map(p -> LearnTaskTokenizer.encode(p.prompt() + LearnTaskTokenizer.ANSWER_MARK)).toList();
        List<String> answers = model.greedy(prompts, 8);
        int right = 0;
        for (int i = 0; i < problems.size(); i++) {
            right += (int) AdditionTask.reward(problems.get(i), answers.get(i));
        }
        return right / (double) problems.size();
    }

    /** {@code a+b} added digit by digit with every carry dropped: {@code 58+67} gives {@code 15}. */
    static String withoutCarries(String prompt) {
        String[] operands = prompt.split("\\+");
        long a = Long.parseLong(operands[0]);
        long b = Long.parseLong(operands[1]);
        long sum = 0;
        for (long place = 1; a > 0 || b > 0; place *= 10, a /= 10, b /= 10) {
            sum += (a % 10 + b % 10) % 10 * place;
        }
        return Long.toString(sum);
    }

    private record Batch(int[][] ids, float[][] weights) {
    }

    /** The problems as {@code a+b=sum<|im_end|>}, padded with {@code <|endoftext|>}; the answer and end weigh 1. */
    private static Batch batch(List<AdditionTask.Problem> problems, double noise, Random slips) {
        int end = LearnTaskTokenizer.id(LearnTaskTokenizer.IM_END);
        int pad = LearnTaskTokenizer.id(LearnTaskTokenizer.END_OF_TEXT);
        List<int[]> sequences = new ArrayList<>();
        List<Integer> promptLengths = new ArrayList<>();
        int length = 0;
        for (AdditionTask.Problem p : problems) {
            int[] prompt = LearnTaskTokenizer.encode(p.prompt() + LearnTaskTokenizer.ANSWER_MARK);
            int[] answer = LearnTaskTokenizer.encode(slips.nextDouble() < noise ? withoutCarries(p.prompt())
                    : p.answer());
            int[] seq = Arrays.copyOf(prompt, prompt.length + answer.length + 1);
            System.arraycopy(answer, 0, seq, prompt.length, answer.length);
            seq[seq.length - 1] = end;
            sequences.add(seq);
            promptLengths.add(prompt.length);
            length = Math.max(length, seq.length);
        }
        int[][] ids = new int[problems.size()][length];
        float[][] weights = new float[problems.size()][length];
        for (int i = 0; i < ids.length; i++) {
            int[] seq = sequences.get(i);
            Arrays.fill(ids[i], pad);
            System.arraycopy(seq, 0, ids[i], 0, seq.length);
            // position t predicts token t + 1: the answer's tokens and the end follow the prompt's last position
            for (int t = promptLengths.get(i) - 1; t < seq.length - 1; t++) {
                weights[i][t] = 1;
            }
        }
        return new Batch(ids, weights);
    }
}

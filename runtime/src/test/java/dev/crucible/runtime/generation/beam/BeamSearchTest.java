package dev.crucible.runtime.generation.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.runtime.generation.logprobs.TokenLogprob;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import java.util.function.Function;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Beam search against an exhaustive search over tiny vocabularies: a model is a table of next-token distributions
 * drawn from a seed, and every possible output is scored with vLLM's formula written out here.
 */
class BeamSearchTest {

    private static final int[] PROMPT = {7, 8};

    @Property(tries = 300)
    void aBeamAsWideAsEveryOutputFindsTheExhaustiveRanking(@ForAll long seed, @ForAll @IntRange(min = 2, max = 3) int vocab,
            @ForAll @IntRange(min = 1, max = 3) int maxTokens, @ForAll @DoubleRange(min = -1, max = 2) double penalty,
            @ForAll boolean withEos) {
        TinyModel model = TinyModel.random(seed, vocab);
        int width = (int) Math.pow(vocab, maxTokens);
        OptionalInt eos = withEos ? OptionalInt.of(0) : OptionalInt.empty();

        List<Beam> beams = run(model, new BeamSearchParams(width, maxTokens, penalty, eos));

        List<Scored> exhaustive = exhaustive(model, maxTokens, penalty, eos);
        assertEquals(exhaustive.stream().map(Scored::tokens).toList(), beams.stream().map(Beam::tokenIds).toList());
        for (int i = 0; i < beams.size(); i++) {
            assertEquals(exhaustive.get(i).score(), beams.get(i).score(PROMPT.length, penalty), 1e-9);
        }
    }

    @Property(tries = 300)
    void beamsComeBestFirstWithTheModelsLogprobsAndNeverBeatTheExhaustiveBest(@ForAll long seed,
            @ForAll @IntRange(min = 2, max = 5) int vocab, @ForAll @IntRange(min = 1, max = 4) int maxTokens,
            @ForAll @IntRange(min = 1, max = 4) int width, @ForAll @DoubleRange(min = -1, max = 2) double penalty,
            @ForAll boolean withEos) {
        TinyModel model = TinyModel.random(seed, vocab);
        OptionalInt eos = withEos ? OptionalInt.of(0) : OptionalInt.empty();

        List<Beam> beams = run(model, new BeamSearchParams(width, maxTokens, penalty, eos));

        assertTrue(!beams.isEmpty() && beams.size() <= width, "between 1 and width beams: " + beams.size());
        double previous = Double.POSITIVE_INFINITY;
        for (Beam beam : beams) {
            List<Integer> tokens = beam.tokenIds();
            boolean endsInEos = eos.isPresent() && tokens.getLast() == eos.getAsInt();
            assertEquals(endsInEos, beam.endedByEos());
            assertTrue(endsInEos || tokens.size() == maxTokens, "a beam without EOS runs to the budget: " + tokens);
            double score = formula(model.cumulative(tokens), tokens.size() - (endsInEos ? 1 : 0), penalty);
            assertEquals(model.cumulative(tokens), beam.cumulativeLogprob(), 1e-9);
            assertTrue(score <= previous + 1e-12, "best first");
            previous = score;
        }
        double best = exhaustive(model, maxTokens, penalty, eos).getFirst().score();
        assertTrue(beams.getFirst().score(PROMPT.length, penalty) <= best + 1e-9);
        assertTrue(model.calls <= maxTokens, "at most one model call per step: " + model.calls);
        assertTrue(model.widest <= width, "at most width sequences per call: " + model.widest);
    }

    @Property(tries = 200)
    void widthOneWithoutEosIsGreedyDecoding(@ForAll long seed, @ForAll @IntRange(min = 2, max = 6) int vocab,
            @ForAll @IntRange(min = 1, max = 6) int maxTokens) {
        TinyModel model = TinyModel.random(seed, vocab);

        List<Beam> beams = run(model, new BeamSearchParams(1, maxTokens, 1.0, OptionalInt.empty()));

        List<Integer> greedy = new ArrayList<>();
        for (int step = 0; step < maxTokens; step++) {
            double[] next = model.logprobs(greedy);
            int argmax = 0;
            for (int t = 1; t < vocab; t++) {
                argmax = next[t] > next[argmax] ? t : argmax;
            }
            greedy.add(argmax);
        }
        assertEquals(List.of(greedy), beams.stream().map(Beam::tokenIds).toList());
    }

    /**
     * After the prompt, EOS has p=0.40 and token 1 p=0.35; after token 1, token 1 again has p=0.90. With width 1
     * and two tokens, the finished {@code [EOS]} (cumulative -0.92, length 2) beats {@code [1, 1]} (-1.16, length 4)
     * without a length penalty, and loses to it with penalty 1 (-0.46 against -0.29).
     */
    @Test
    void theLengthPenaltyDecidesBetweenAShortAndALongBeamAsTheFormulaSays() {
        TinyModel model = new TinyModel(3, prefix -> Map.of(
                List.<Integer>of(), new double[] {0.40, 0.35, 0.25},
                List.of(1), new double[] {0.05, 0.90, 0.05}).getOrDefault(prefix, new double[] {0.2, 0.4, 0.4}));

        List<Beam> plain = run(model, new BeamSearchParams(2, 2, 0.0, OptionalInt.of(0)));
        List<Beam> penalised = run(model, new BeamSearchParams(2, 2, 1.0, OptionalInt.of(0)));

        assertEquals(List.of(0), plain.getFirst().tokenIds());
        assertEquals(Math.log(0.40), plain.getFirst().score(PROMPT.length, 0.0), 1e-12);
        assertEquals(List.of(1, 1), penalised.getFirst().tokenIds());
        assertEquals((Math.log(0.35) + Math.log(0.90)) / 4, penalised.getFirst().score(PROMPT.length, 1.0), 1e-12);
        assertEquals(List.of(0), penalised.get(1).tokenIds());
    }

    @Test
    void aStopBeforeTheFirstStepAsksTheModelNothing() {
        TinyModel model = TinyModel.random(1, 3);

        List<Beam> beams = BeamSearch.run(PROMPT, model, new BeamSearchParams(2, 3, 1.0, OptionalInt.empty()),
                () -> true).orElseThrow();

        assertEquals(0, model.calls);
        assertEquals(List.of(List.of()), beams.stream().map(Beam::tokenIds).toList());
    }

    private static List<Beam> run(TinyModel model, BeamSearchParams params) {
        return BeamSearch.run(PROMPT, model, params, () -> false).orElseThrow();
    }

    /** vLLM's score, written independently of {@link Beam#score}: the prompt counts, a final EOS does not. */
    private static double formula(double cumulative, int generatedWithoutEos, double penalty) {
        return cumulative / Math.pow(Math.max(1, PROMPT.length + generatedWithoutEos), penalty);
    }

    /** Every output the search could return (ending in EOS, or at the budget), best score first. */
    private static List<Scored> exhaustive(TinyModel model, int maxTokens, double penalty, OptionalInt eos) {
        List<Scored> all = new ArrayList<>();
        expand(model, new ArrayList<>(), 0.0, maxTokens, penalty, eos, all);
        all.sort(Comparator.comparingDouble(Scored::score).reversed());
        return all;
    }

    private static void expand(TinyModel model, List<Integer> prefix, double cumulative, int maxTokens,
            double penalty, OptionalInt eos, List<Scored> out) {
        double[] next = model.logprobs(prefix);
        for (int token = 0; token < next.length; token++) {
            List<Integer> tokens = new ArrayList<>(prefix);
            tokens.add(token);
            double sum = cumulative + next[token];
            if (eos.isPresent() && token == eos.getAsInt()) {
                out.add(new Scored(List.copyOf(tokens), formula(sum, prefix.size(), penalty)));
            } else if (tokens.size() == maxTokens) {
                out.add(new Scored(List.copyOf(tokens), formula(sum, tokens.size(), penalty)));
            } else {
                expand(model, tokens, sum, maxTokens, penalty, eos, out);
            }
        }
    }

    private record Scored(List<Integer> tokens, double score) {
    }

    /** A model over a tiny vocabulary: the next-token probabilities of each generated prefix come from a table. */
    private static final class TinyModel implements NextTokens {

        private final int vocab;
        private final Function<List<Integer>, double[]> probabilities;
        int calls;
        int widest;

        TinyModel(int vocab, Function<List<Integer>, double[]> probabilities) {
            this.vocab = vocab;
            this.probabilities = probabilities;
        }

        /** Probabilities drawn per prefix from {@code seed}. */
        static TinyModel random(long seed, int vocab) {
            return new TinyModel(vocab, prefix -> {
                Random random = new Random(seed * 1_000_003L + prefix.hashCode());
                double[] p = new double[vocab];
                for (int t = 0; t < vocab; t++) {
                    p[t] = Math.exp(2 * random.nextGaussian());
                }
                return p;
            });
        }

        double[] logprobs(List<Integer> generated) {
            double[] p = probabilities.apply(generated);
            double total = Arrays.stream(p).sum();
            return Arrays.stream(p).map(x -> Math.log(x / total)).toArray();
        }

        double cumulative(List<Integer> tokens) {
            double sum = 0;
            for (int i = 0; i < tokens.size(); i++) {
                sum += logprobs(tokens.subList(0, i))[tokens.get(i)];
            }
            return sum;
        }

        /** The {@code count} most likely tokens, deliberately least likely first. */
        @Override
        public Outcome<List<List<TokenLogprob>>> next(List<int[]> sequences, int count) {
            calls++;
            widest = Math.max(widest, sequences.size());
            List<List<TokenLogprob>> answers = new ArrayList<>();
            for (int[] sequence : sequences) {
                assertEquals(List.of(7, 8), Arrays.stream(sequence, 0, PROMPT.length).boxed().toList());
                double[] next = logprobs(Arrays.stream(sequence, PROMPT.length, sequence.length).boxed().toList());
                List<TokenLogprob> ranked = new ArrayList<>();
                for (int t = 0; t < vocab; t++) {
                    ranked.add(new TokenLogprob(t, "t" + t, new byte[0], next[t]));
                }
                ranked.sort(Comparator.comparingDouble(TokenLogprob::logprob).reversed());
                List<TokenLogprob> top = new ArrayList<>(ranked.subList(0, Math.min(count, vocab)));
                answers.add(top.reversed());
            }
            return Outcome.done(answers);
        }
    }
}

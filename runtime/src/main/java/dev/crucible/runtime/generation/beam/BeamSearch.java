package dev.crucible.runtime.generation.beam;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.runtime.generation.logprobs.TokenLogprob;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Beam search as vLLM's serving layer runs it (its {@code beam_search}), written here from its description. It starts
 * from one empty beam. At each step every live beam asks for its {@code 2 * width} most likely next tokens (raw
 * logprobs, whatever the temperature), and those are its candidates even when the answer holds more; each candidate extends its beam's cumulative logprob; a candidate that is the
 * EOS token finishes its beam, which joins the completed ones; the other candidates of all beams are ranked by
 * cumulative logprob and the best {@code width} live on. After {@code maxTokens} steps (or when no beam lives) the
 * completed and the live beams together are ranked by {@link Beam#score} and the best {@code width} are the answer.
 * The model is asked at most {@code maxTokens} times, each time for at most {@code width} sequences. Ties keep the
 * earlier beam (completed before live, then by beam and candidate rank). Stateless.
 */
public final class BeamSearch {

    private BeamSearch() {
    }

    /**
     * The best beams after {@code prompt}, best first: at most {@code params.width()} of them. {@code stopped} is
     * asked before each step; once it says true the search ends as if the budget were spent. Refused when
     * {@code next} refuses a step.
     */
    public static Outcome<List<Beam>> run(int[] prompt, NextTokens next, BeamSearchParams params,
            BooleanSupplier stopped) {
        List<Beam> live = List.of(Beam.START);
        List<Beam> completed = new ArrayList<>();
        int count = params.candidatesPerBeam();
        for (int step = 0; step < params.maxTokens() && !live.isEmpty() && !stopped.getAsBoolean(); step++) {
            Outcome<List<List<TokenLogprob>>> asked = next.next(live.stream().map(b -> b.sequence(prompt)).toList(),
                    count);
            if (!(asked instanceof Outcome.Done<List<List<TokenLogprob>>>(List<List<TokenLogprob>> answers))) {
                return asked.map(a -> List.of());
            }
            if (answers.size() != live.size()) {
                throw new IllegalStateException("asked for " + live.size() + " beams' next tokens, got "
                        + answers.size());
            }
            List<Beam> extended = new ArrayList<>();
            for (int i = 0; i < live.size(); i++) {
                List<TokenLogprob> ranked = ranked(answers.get(i));
                for (TokenLogprob candidate : ranked.subList(0, Math.min(count, ranked.size()))) {
                    boolean eos = params.eosTokenId().isPresent()
                            && candidate.tokenId() == params.eosTokenId().getAsInt();
                    Beam beam = live.get(i).extend(candidate, ranked, eos);
                    (eos ? completed : extended).add(beam);
                }
            }
            extended.sort(Comparator.comparingDouble(Beam::cumulativeLogprob).reversed());
            live = List.copyOf(extended.subList(0, Math.min(params.width(), extended.size())));
        }
        List<Beam> all = new ArrayList<>(completed);
        all.addAll(live);
        all.sort(Comparator.comparingDouble((Beam b) -> b.score(prompt.length, params.lengthPenalty())).reversed());
        return Outcome.done(List.copyOf(all.subList(0, Math.min(params.width(), all.size()))));
    }

    /** {@code answer}, most likely first (stable for ties). */
    private static List<TokenLogprob> ranked(List<TokenLogprob> answer) {
        List<TokenLogprob> ranked = new ArrayList<>(answer);
        ranked.sort(Comparator.comparingDouble(TokenLogprob::logprob).reversed());
        return List.copyOf(ranked);
    }
}

package dev.crucible.hf.tokenizer;

import dev.crucible.hf.ModelFormatException;
import java.util.ArrayList;
import java.util.List;

/** The BPE model step: one pre-tokenized, byte-mapped piece to ids. */
final class BpeMerges {

    private BpeMerges() {
    }

    /** Merges the lowest-ranked adjacent pair, all its occurrences left to right, until no pair has a rank. */
    static int[] apply(String word, EncoderTables tables) {
        Integer whole = tables.vocab().get(word);
        if (tables.ignoreMerges() && whole != null) {
            return new int[] {whole};
        }
        List<String> symbols = new ArrayList<>(word.length());
        word.chars().forEach(c -> symbols.add(String.valueOf((char) c)));
        while (symbols.size() > 1) {
            int bestRank = Integer.MAX_VALUE;
            Merge best = null;
            for (int i = 0; i + 1 < symbols.size(); i++) {
                Merge pair = new Merge(symbols.get(i), symbols.get(i + 1));
                Integer rank = tables.mergeRanks().get(pair);
                if (rank != null && rank < bestRank) {
                    bestRank = rank;
                    best = pair;
                }
            }
            if (best == null) {
                break;
            }
            for (int i = 0; i + 1 < symbols.size(); i++) {
                if (symbols.get(i).equals(best.left()) && symbols.get(i + 1).equals(best.right())) {
                    symbols.set(i, best.merged());
                    symbols.remove(i + 1);
                }
            }
        }
        return symbols.stream().mapToInt(s -> {
            Integer id = tables.vocab().get(s);
            if (id == null) {
                throw new ModelFormatException("tokenizer.json: piece '" + s + "' is not in the vocabulary");
            }
            return id;
        }).toArray();
    }
}

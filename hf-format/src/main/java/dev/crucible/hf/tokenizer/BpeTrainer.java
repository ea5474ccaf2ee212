package dev.crucible.hf.tokenizer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;

/**
 * Trains byte-level BPE: the text is normalised and split as the style says, each piece becomes a word of byte
 * characters, and the most frequent adjacent pair is merged until the vocabulary is full or no pair occurs twice.
 * Ties go to the pair whose left, then right, token id is smallest, so the result depends only on the input.
 * Stateless and thread-safe.
 */
public final class BpeTrainer {

    private static final int MIN_PAIR_COUNT = 2;

    private BpeTrainer() {
    }

    /** Trains on {@code corpus} up to {@code vocabSize} tokens (at least the 256 byte tokens). */
    public static BpeModel train(String corpus, int vocabSize, TokenizerStyle style) {
        if (vocabSize < 256) {
            throw new IllegalArgumentException("vocabSize must be at least 256, got " + vocabSize);
        }
        List<String> vocab = new ArrayList<>();
        Map<String, Integer> ids = new HashMap<>();
        for (int b = 0; b < 256; b++) {
            String token = String.valueOf(ByteLevel.charOf(b));
            ids.put(token, vocab.size());
            vocab.add(token);
        }
        List<int[]> words = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        countWords(corpus, style).forEach((word, count) -> {
            words.add(word.chars().map(c -> ids.get(String.valueOf((char) c))).toArray());
            counts.add(count);
        });
        List<Merge> merges = new ArrayList<>();
        while (vocab.size() < vocabSize) {
            long best = bestPair(words, counts);
            if (best < 0) {
                break;
            }
            int left = (int) (best >>> 32);
            int right = (int) best;
            String merged = vocab.get(left) + vocab.get(right);
            Integer id = ids.get(merged);
            if (id == null) {
                id = vocab.size();
                ids.put(merged, id);
                vocab.add(merged);
            }
            merges.add(new Merge(vocab.get(left), vocab.get(right)));
            for (int w = 0; w < words.size(); w++) {
                words.set(w, replace(words.get(w), left, right, id));
            }
        }
        return new BpeModel(vocab, merges);
    }

    /** Byte-level words and their counts, in sorted order so the word list is the same on every run. */
    private static Map<String, Integer> countWords(String corpus, TokenizerStyle style) {
        Map<String, Integer> counts = new TreeMap<>();
        Matcher m = style.pattern().matcher(style.normalize(corpus));
        while (m.find()) {
            counts.merge(ByteLevel.encode(m.group()), 1, Integer::sum);
        }
        return counts;
    }

    /** The most frequent pair as {@code left << 32 | right}, or -1 when none occurs {@value #MIN_PAIR_COUNT} times. */
    private static long bestPair(List<int[]> words, List<Integer> counts) {
        Map<Long, Long> pairs = new HashMap<>();
        for (int w = 0; w < words.size(); w++) {
            int[] word = words.get(w);
            for (int i = 0; i + 1 < word.length; i++) {
                pairs.merge(((long) word[i] << 32) | word[i + 1], (long) counts.get(w), Long::sum);
            }
        }
        long best = -1;
        long bestCount = MIN_PAIR_COUNT - 1;
        for (Map.Entry<Long, Long> e : pairs.entrySet()) {
            long count = e.getValue();
            if (count > bestCount || (count == bestCount && best >= 0 && e.getKey() < best)) {
                best = e.getKey();
                bestCount = count;
            }
        }
        return best;
    }

    /** The word with every non-overlapping (left, right) pair, scanned left to right, replaced by {@code merged}. */
    private static int[] replace(int[] word, int left, int right, int merged) {
        int[] out = new int[word.length];
        int n = 0;
        for (int i = 0; i < word.length; i++) {
            if (i + 1 < word.length && word[i] == left && word[i + 1] == right) {
                out[n++] = merged;
                i++;
            } else {
                out[n++] = word[i];
            }
        }
        return n == word.length ? word : Arrays.copyOf(out, n);
    }
}

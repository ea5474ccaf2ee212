package dev.crucible.adapters.tribuo;

import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;
import org.tribuo.Feature;
import org.tribuo.data.text.impl.CasingPreprocessor;
import org.tribuo.data.text.impl.TokenPipeline;
import org.tribuo.util.tokens.impl.BreakIteratorTokenizer;

/**
 * The features of a (prompt, answer) pair, the same when fitting and when scoring: each text lower-cased (Tribuo's
 * {@link CasingPreprocessor}), split into words by Tribuo's {@link BreakIteratorTokenizer} (root locale), its word
 * unigrams and bigrams hashed into {@value #HASH_DIMENSION} buckets ({@link TokenPipeline}), each present bucket a
 * feature of value 1 named {@code prompt-hash=<bucket>} or {@code answer-hash=<bucket>}; and the answer's length class,
 * {@code answer-length=<floor(log2(characters + 1))>}, so that every pair has a feature (Tribuo refuses an example
 * without one, such as an empty answer) and length, which judges often reward, can be learned. Not thread-safe
 * (Tribuo's tokenizer keeps state): one instance per call.
 */
final class TribuoTextFeatures {

    /** Buckets per text: a model has at most twice this many features, whatever the vocabulary. */
    static final int HASH_DIMENSION = 1 << 12;
    static final String DESCRIPTION = "lower-cased word unigrams and bigrams (Tribuo TokenPipeline over a "
            + "BreakIteratorTokenizer) of the prompt and of the answer, each hashed into " + HASH_DIMENSION
            + " buckets, binary, prefixed prompt- and answer-; plus the answer's length class, floor(log2(chars + 1))";

    private final CasingPreprocessor lowerCase = new CasingPreprocessor(CasingPreprocessor.CasingOperation.LOWERCASE);
    private final TokenPipeline pipeline = new TokenPipeline(new BreakIteratorTokenizer(Locale.ROOT), 2, false,
            HASH_DIMENSION);

    /** The pair's features by name, each of value 1. */
    SortedMap<String, Double> of(String prompt, String answer) {
        SortedMap<String, Double> features = new TreeMap<>();
        add(features, "prompt", prompt);
        add(features, "answer", answer);
        features.put("answer-length=" + (31 - Integer.numberOfLeadingZeros(answer.length() + 1)), 1.0);
        return features;
    }

    private void add(SortedMap<String, Double> features, String tag, String text) {
        if (text.isBlank()) {
            return;
        }
        for (Feature feature : pipeline.process(tag, lowerCase.processDoc(text))) {
            features.put(feature.getName(), 1.0);
        }
    }
}

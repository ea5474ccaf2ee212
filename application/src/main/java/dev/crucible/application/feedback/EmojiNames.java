package dev.crucible.application.feedback;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import net.fellbaum.jemoji.Emoji;
import net.fellbaum.jemoji.EmojiManager;
import net.fellbaum.jemoji.IndexedEmoji;
import net.fellbaum.jemoji.Qualification;

/**
 * The Python {@code emoji} package's English short names ({@code :thumbs_up:}, {@code :United_States:}),
 * derived from jemoji's CLDR descriptions by that package's own generator rule
 * ({@code utils/generate_emoji.py::extract_emojis}): spaces become {@code _}; a leading {@code flag:_} is dropped;
 * {@code :}, {@code ,}, curly double quotes and {@code ⊛} are removed; {@code _-_} becomes {@code -}; case is kept.
 * Checked once against every name in emoji 2.14.1's {@code emoji.json}: all 5042 agree.
 */
final class EmojiNames {

    /** Weave's {@code emoji_util.RE_TONE}. */
    private static final Pattern TONE = Pattern.compile("_(light|medium-light|medium|medium-dark|dark)_skin_tone");

    private EmojiNames() {
    }

    /** How many emojis {@code text} holds, counted as {@code emoji.emoji_count} does (longest match first). */
    static int count(String text) {
        return EmojiManager.extractEmojisInOrder(text).size();
    }

    /** {@code emoji.demojize}: each emoji replaced by its short name. */
    static String demojize(String text) {
        return replace(text, EmojiNames::shortName);
    }

    /** Weave's {@code detone_emojis}: each emoji's skin tones removed from its short name, then re-emojized. */
    static String detone(String text) {
        return replace(text, emoji -> emojize(TONE.matcher(shortName(emoji)).replaceAll("")));
    }

    static String shortName(Emoji emoji) {
        String name = emoji.getDescription().replace(' ', '_');
        if (name.startsWith("flag:_")) {
            name = name.substring("flag:_".length());
        }
        name = name.replace(":", "").replace(",", "").replace("\u201c", "").replace("\u201d", "")
                .replace("\u229b", "").strip().replace("_-_", "-");
        return ":" + name + ":";
    }

    /** {@code emoji.emojize} of one short name: the fully-qualified emoji of that name, else the name unchanged. */
    static String emojize(String shortName) {
        return Optional.ofNullable(ByName.EMOJIS.get(shortName)).orElse(shortName);
    }

    /**
     * Replaces each emoji as Python {@code emoji}'s tokenizer does, which also drops variation selectors
     * (U+FE0E, U+FE0F) that are not part of an emoji.
     */
    private static String replace(String text, Function<Emoji, String> replacement) {
        List<IndexedEmoji> found = EmojiManager.extractEmojisInOrderWithIndex(text);
        StringBuilder out = new StringBuilder(text.length() + 16 * found.size());
        int at = 0;
        for (IndexedEmoji indexed : found) {
            appendPlain(out, text, at, indexed.getCharIndex());
            out.append(replacement.apply(indexed.getEmoji()));
            at = indexed.getEndCharIndex();
        }
        appendPlain(out, text, at, text.length());
        return out.toString();
    }

    private static void appendPlain(StringBuilder out, String text, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c != '\uFE0E' && c != '\uFE0F') {
                out.append(c);
            }
        }
    }

    /** Short name to emoji, built once on first use from jemoji's immutable data. */
    private static final class ByName {
        static final Map<String, String> EMOJIS = build();

        private static Map<String, String> build() {
            Map<String, String> byName = new HashMap<>();
            for (Emoji emoji : EmojiManager.getAllEmojis()) {
                Qualification q = emoji.getQualification();
                if (q == Qualification.FULLY_QUALIFIED || q == Qualification.COMPONENT) {
                    byName.putIfAbsent(shortName(emoji), emoji.getEmoji());
                }
            }
            return Map.copyOf(byName);
        }
    }
}

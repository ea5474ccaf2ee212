package dev.crucible.application.feedback;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Expected values come from Python's {@code emoji} 2.14.1 ({@code emoji_count}, {@code demojize}) and Weave's
 * {@code detone_emojis}, run on the same strings.
 */
class EmojiNamesTest {

    @ParameterizedTest(name = "{0} -> {2}")
    @CsvSource(delimiter = '|', value = {
        "👍 | 1 | :thumbs_up: | 👍 | :thumbs_up:",
        "👎 | 1 | :thumbs_down: | 👎 | :thumbs_down:",
        "👍🏽 | 1 | :thumbs_up_medium_skin_tone: | 👍 | :thumbs_up:",
        "👍🏿 | 1 | :thumbs_up_dark_skin_tone: | 👍 | :thumbs_up:",
        "❤️ | 1 | :red_heart: | ❤️ | :red_heart:",
        "❤ | 1 | :red_heart: | ❤️ | :red_heart:",
        "🇺🇸 | 1 | :United_States: | 🇺🇸 | :United_States:",
        "👨‍👩‍👧 | 1 | :family_man_woman_girl: | 👨‍👩‍👧 | :family_man_woman_girl:",
        "#️⃣ | 1 | :keycap_#: | #️⃣ | :keycap_#:",
        "🤝🏻 | 1 | :handshake_light_skin_tone: | 🤝 | :handshake:",
        "🫱🏻‍🫲🏿 | 1 | :handshake_light_skin_tone_dark_skin_tone: | 🤝 | :handshake:",
        "🧑🏽‍🚀 | 1 | :astronaut_medium_skin_tone: | 🧑‍🚀 | :astronaut:",
        "👩🏾‍❤️‍👨🏻 | 1 | :couple_with_heart_woman_man_medium-dark_skin_tone_light_skin_tone: "
                + "| 👩‍❤️‍👨 | :couple_with_heart_woman_man:",
        "🏽 | 1 | :medium_skin_tone: | 🏽 | :medium_skin_tone:",
        "a👍 | 1 | a:thumbs_up: | a👍 | a:thumbs_up:",
        "👍👍 | 2 | :thumbs_up::thumbs_up: | 👍👍 | :thumbs_up::thumbs_up:",
        "abc | 0 | abc | abc | abc",
    })
    void namesEmojisAsPythonEmojiDoes(String text, int count, String alias, String detoned, String detonedAlias) {
        assertEquals(count, EmojiNames.count(text));
        assertEquals(alias, EmojiNames.demojize(text));
        assertEquals(detoned, EmojiNames.detone(text));
        assertEquals(detonedAlias, EmojiNames.demojize(EmojiNames.detone(text)));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"👍\uFE0F | :thumbs_up:", "a\uFE0Fb | ab"})
    void dropsStrayVariationSelectorsAsPythonsTokenizerDoes(String text, String alias) {
        assertEquals(alias, EmojiNames.demojize(text));
    }
}

package dev.crucible.domain.ids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.domain.feedback.FeedbackId;
import dev.crucible.domain.reward.RewardModelId;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class CanonicalUuidTest {

    @ParameterizedTest
    @ValueSource(strings = {"0190f3a1-1234-7abc-8def-0123456789ab", "0190F3A1-1234-7ABC-8DEF-0123456789AB"})
    void readsTheCanonicalFormInEitherCase(String text) {
        assertEquals(Optional.of(UUID.fromString("0190f3a1-1234-7abc-8def-0123456789ab")), CanonicalUuid.parse(text));
    }

    /** Short and signed forms {@link UUID#fromString} accepts, a 36-character one among them, and non-UUIDs. */
    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "1-1-1-1-1", "0-0-0-0-0000000000000000000000000000", "+190f3a1-1234-7abc-8def-0123456789ab",
            "0190f3a1-1234-7abc-8def-0123456789a", "0190f3a1-1234-7abc-8def-0123456789abc",
            "0190f3a112347abc8def0123456789ab", "0190f3a1-1234-7abc-8def-0123456789ag",
            "0190f3a1_1234_7abc_8def_0123456789ab", "not-a-uuid"})
    void refusesEveryOtherForm(String text) {
        assertEquals(Optional.empty(), CanonicalUuid.parse(text));
    }

    @Property(tries = 300)
    void everyUuidReadsBackFromItsTextInEitherCase(@ForAll long most, @ForAll long least) {
        UUID uuid = new UUID(most, least);

        assertEquals(Optional.of(uuid), CanonicalUuid.parse(uuid.toString()));
        assertEquals(Optional.of(uuid), CanonicalUuid.parse(uuid.toString().toUpperCase(Locale.ROOT)));
    }

    @Property(tries = 500)
    void whatItReadsIsTheTextItself(@ForAll String text) {
        CanonicalUuid.parse(text).ifPresent(uuid -> assertTrue(uuid.toString().equalsIgnoreCase(text), text));
    }

    @Property(tries = 300)
    void feedbackAndRewardModelIdsReadTheSameForms(@ForAll String text) {
        Optional<UUID> expected = CanonicalUuid.parse(text);

        assertEquals(expected, FeedbackId.parse(text).map(FeedbackId::value));
        assertEquals(expected, RewardModelId.parse(text).map(RewardModelId::value));
    }
}

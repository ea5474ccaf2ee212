package dev.crucible.domain.trajectory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class HistoryItemTest {

    @Test
    void aMessageHasARole() {
        HistoryItem item = HistoryItem.of(Map.of("role", "user", "content", "hi"));
        assertFalse(item.isChoice());
    }

    @Test
    void aChoiceHasAMessageAndNoRole() {
        HistoryItem item = HistoryItem.of(Map.of("message", Map.of("role", "assistant"), "logprobs", List.of()));
        assertTrue(item.isChoice());
        assertTrue(HistoryItem.isChoice(item.json()));
    }

    @Test
    void anItemWithARoleIsAMessageEvenWhenItAlsoHasAMessageKey() {
        HistoryItem item = HistoryItem.of(Map.of("role", "assistant", "message", Map.of()));
        assertFalse(item.isChoice());
    }

    @Test
    void refusesAnItemThatIsNeither() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HistoryItem.of(Map.of("content", "hi")));
        assertEquals("a history item is a message (with role) or a choice (with message)", e.getMessage());
        assertThrows(NullPointerException.class, () -> HistoryItem.of(null));
    }

    @Test
    void aChoiceCarriesWhatTheTrainerReadsTyped() {
        Map<String, Object> json = Map.of("message", Map.of("role", "assistant", "content", "4"),
                "logprobs", Map.of("content", List.of(Map.of("token", "token_id:7", "logprob", -0.5),
                        Map.of("token", "x", "bytes", List.of(120)))),
                "token_ids", List.of(7, 12_345_678_901L));
        HistoryItem.Choice choice = assertInstanceOf(HistoryItem.Choice.class, HistoryItem.of(json));
        assertEquals(Map.of("role", "assistant", "content", "4"), choice.message());
        assertEquals(Optional.of(List.of(new SampledToken("token_id:7", -0.5, List.of()),
                new SampledToken("x", null, List.of(120)))), choice.logprobs());
        assertEquals(List.of(7L, 12_345_678_901L), choice.tokenIds(),
                "a token id past the vocabulary is the trainer's to refuse");
        assertEquals(json, choice.json());
    }

    @Test
    void aChoiceWithoutLogprobsContentHasNone() {
        HistoryItem.Choice choice = (HistoryItem.Choice) HistoryItem.of(Map.of("message", Map.of(), "logprobs",
                Map.of()));
        assertEquals(Optional.empty(), choice.logprobs());
        assertEquals(List.of(), choice.tokenIds());
    }

    @Test
    void aMalformedChoiceIsABugOnceTheEdgeHasCheckedIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HistoryItem.of(Map.of(
                "message", Map.of(), "logprobs", Map.of("content", List.of(Map.of("logprob", "x"))))));
        assertEquals("logprobs.content[0].logprob must be a number, got x", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> HistoryItem.of(Map.of("message", "text")));
        assertThrows(IllegalArgumentException.class, () -> HistoryItem.of(Map.of("message", Map.of(),
                "token_ids", List.of(-1))));
    }

    @Test
    void aSampledTokenNamesAnIdOnlyWhenWrittenTokenIdN() {
        assertEquals(OptionalInt.of(151643), new SampledToken("token_id:151643", null, List.of()).namedTokenId());
        assertTrue(new SampledToken("token_id:x", null, List.of()).namesTokenId());
        assertEquals(OptionalInt.empty(), new SampledToken("token_id:x", null, List.of()).namedTokenId());
        assertFalse(new SampledToken("hello", null, List.of()).namesTokenId());
        assertFalse(new SampledToken(null, null, List.of()).namesTokenId());
        assertThrows(IllegalArgumentException.class, () -> new SampledToken("a", null, List.of(256)));
    }

    @Test
    void historyCopiesItsLists() {
        History history = Trajectories.history();
        assertEquals(2, history.items().size());
        assertThrows(UnsupportedOperationException.class, () -> history.tools().add(Map.of()));
        assertThrows(NullPointerException.class, () -> new History(null, List.of()));
        assertThrows(NullPointerException.class, () -> new History(List.of(), null));
    }
}

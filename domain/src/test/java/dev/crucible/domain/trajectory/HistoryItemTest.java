package dev.crucible.domain.trajectory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HistoryItemTest {

    @Test
    void aMessageHasARole() {
        HistoryItem item = new HistoryItem(Map.of("role", "user", "content", "hi"));
        assertFalse(item.isChoice());
    }

    @Test
    void aChoiceHasAMessageAndNoRole() {
        HistoryItem item = new HistoryItem(Map.of("message", Map.of("role", "assistant"), "logprobs", List.of()));
        assertTrue(item.isChoice());
        assertTrue(HistoryItem.isChoice(item.json()));
    }

    @Test
    void anItemWithARoleIsAMessageEvenWhenItAlsoHasAMessageKey() {
        HistoryItem item = new HistoryItem(Map.of("role", "assistant", "message", Map.of()));
        assertFalse(item.isChoice());
    }

    @Test
    void refusesAnItemThatIsNeither() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new HistoryItem(Map.of("content", "hi")));
        assertEquals("a history item is a message (with role) or a choice (with message)", e.getMessage());
        assertThrows(NullPointerException.class, () -> new HistoryItem(null));
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

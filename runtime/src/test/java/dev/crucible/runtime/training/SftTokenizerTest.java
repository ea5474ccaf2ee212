package dev.crucible.runtime.training;

import static dev.crucible.runtime.training.TrainingFixtures.message;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.testsupport.tokenizer.CharTokenizer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SftTokenizerTest {

    private final CharTokenizer tok = new CharTokenizer();

    private static List<TokenizedTurns.Turns> tokenize(boolean lastTurnOnly, List<Map<String, Object>> messages) {
        return new SftTokenizer(TrainingFixtures.model(4096), lastTurnOnly).tokenize(messages, List.of(),
                "training data line 4");
    }

    private String trained(TokenizedTurns.Turns turns) {
        int[] ids = turns.tokenIds();
        StringBuilder out = new StringBuilder();
        for (int t : turns.targets()) {
            out.append(tok.decode(new int[] {ids[t]}, false));
        }
        return out.toString();
    }

    @Test
    void onlyTheAssistantsContentAndEndOfTurnAreTrained() {
        List<TokenizedTurns.Turns> out = tokenize(false,
                List.of(message("system", "s"), message("user", "2+2?"), message("assistant", "4")));
        assertEquals(1, out.size());
        assertEquals("4<|im_end|>\n", trained(out.getFirst()));
    }

    @Test
    void everyAssistantTurnIsTrainedUnlessOnlyTheLastIsAsked() {
        List<Map<String, Object>> messages = List.of(message("user", "a"), message("assistant", "b"),
                message("user", "c"), message("assistant", "d"));
        assertEquals("b<|im_end|>\nd<|im_end|>\n", trained(tokenize(false, messages).getFirst()));
        assertEquals("d<|im_end|>\n", trained(tokenize(true, messages).getFirst()));
    }
}

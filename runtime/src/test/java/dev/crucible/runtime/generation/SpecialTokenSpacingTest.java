package dev.crucible.runtime.generation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SpecialTokenSpacingTest {

    /** A decoder that puts a space before every special token, as some SentencePiece-style decoders do. */
    private static final class SpacingTokenizer extends FakeTokenizer {
        @Override
        public String decode(int[] ids, boolean skipSpecialTokens) {
            StringBuilder out = new StringBuilder();
            for (int id : ids) {
                if (isSpecial(id) && skipSpecialTokens) {
                    continue;
                }
                out.append(isSpecial(id) ? " " : "").append(super.decode(new int[] {id}, false));
            }
            return out.toString();
        }
    }

    private static String detokenize(boolean skip, boolean spaces, int... ids) {
        IncrementalDetokenizer d = new IncrementalDetokenizer(new SpacingTokenizer(), skip, spaces,
                new int[] {FakeTokenizer.A});
        StringBuilder out = new StringBuilder();
        for (int id : ids) {
            out.append(d.append(id));
        }
        return out.toString();
    }

    @Test
    void keptSpecialTokensFollowTheDecoderUnlessSpacesBetweenThemAreTurnedOff() {
        int[] ids = {FakeTokenizer.B, FakeTokenizer.SPECIAL, FakeTokenizer.SPECIAL, FakeTokenizer.D};
        assertEquals("b <|x|> <|x|>d", detokenize(false, true, ids));
        assertEquals("b <|x|><|x|>d", detokenize(false, false, ids), "vLLM's fast rule: a special after a special is raw");
        assertEquals("bd", detokenize(true, false, ids), "skipped specials leave nothing to space");
    }
}

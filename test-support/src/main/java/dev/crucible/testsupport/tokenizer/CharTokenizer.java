package dev.crucible.testsupport.tokenizer;

import dev.crucible.hf.tokenizer.Tokenizer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * A tokenizer for tests: {@code <|im_start|>} is 0, {@code <|im_end|>} is 1, every other character (below U+0400) is
 * its code point plus 10, so expected ids can be written by hand.
 */
public final class CharTokenizer implements Tokenizer {

    public static final int IM_START = 0;
    public static final int IM_END = 1;
    private static final List<String> SPECIAL = List.of("<|im_start|>", "<|im_end|>");

    public static int id(char c) {
        return c + 10;
    }

    @Override
    public int[] encode(String text, boolean addSpecialTokens) {
        List<Integer> ids = new ArrayList<>();
        int i = 0;
        outer:
        while (i < text.length()) {
            for (int s = 0; s < SPECIAL.size(); s++) {
                if (text.startsWith(SPECIAL.get(s), i)) {
                    ids.add(s);
                    i += SPECIAL.get(s).length();
                    continue outer;
                }
            }
            ids.add(id(text.charAt(i++)));
        }
        return ids.stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public String decode(int[] ids, boolean skipSpecialTokens) {
        StringBuilder out = new StringBuilder();
        for (int id : ids) {
            if (id < SPECIAL.size()) {
                out.append(skipSpecialTokens ? "" : SPECIAL.get(id));
            } else {
                out.append((char) (id - 10));
            }
        }
        return out.toString();
    }

    @Override
    public OptionalInt tokenId(String token) {
        int special = SPECIAL.indexOf(token);
        if (special >= 0) {
            return OptionalInt.of(special);
        }
        return token.length() == 1 ? OptionalInt.of(id(token.charAt(0))) : OptionalInt.empty();
    }

    @Override
    public byte[] tokenBytes(int id) {
        return decode(new int[] {id}, false).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public boolean isSpecial(int id) {
        return id < SPECIAL.size();
    }

    @Override
    public int vocabSize() {
        return 1034;
    }

    @Override
    public void close() {
    }
}

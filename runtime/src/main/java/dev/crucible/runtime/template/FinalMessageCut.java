package dev.crucible.runtime.template;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.List;
import java.util.Map;

/**
 * transformers' {@code continue_final_message}: the prompt is cut right after the final message's content, so the
 * model carries on that message instead of starting a new turn. The content is found by its last occurrence with
 * surrounding whitespace stripped; trailing whitespace is kept only when the template kept it. Stateless.
 */
final class FinalMessageCut {

    static final String NO_TEXT =
            "continue_final_message is set but we could not find any text to continue in the final message!";
    static final String NOT_FOUND = "continue_final_message is set but the final message does not appear in the chat "
            + "after applying the chat template! This can happen if the chat template deletes portions of the final "
            + "message. Please verify the chat template and final message in your chat to ensure they are compatible.";

    private FinalMessageCut() {
    }

    static Outcome<String> cut(String rendered, List<Map<String, Object>> messages) {
        String finalMessage = messages.isEmpty() ? null : text(messages.getLast().get("content"));
        if (finalMessage == null) {
            return Outcome.refused(Refusal.invalid("messages", NO_TEXT));
        }
        String stripped = PythonStrMethods.strip(finalMessage, null, true, true);
        int at = rendered.lastIndexOf(stripped);
        if (at < 0) {
            return Outcome.refused(Refusal.invalid("messages", NOT_FOUND));
        }
        String leftStripped = PythonStrMethods.strip(finalMessage, null, true, false);
        int end = at + leftStripped.length();
        boolean templateKeptIt = end <= rendered.length() && rendered.substring(at, end).equals(finalMessage);
        return Outcome.done(rendered.substring(0, templateKeptIt ? end : at + stripped.length()));
    }

    /** The content's text: a string, or the text of the last block that has one in a list of content blocks. */
    private static String text(Object content) {
        if (content instanceof String s) {
            return s;
        }
        if (content instanceof List<?> blocks) {
            for (Object block : blocks.reversed()) {
                if (block instanceof Map<?, ?> map && map.containsKey("text")) {
                    return map.get("text") instanceof String s ? s : null;
                }
            }
        }
        return null;
    }
}

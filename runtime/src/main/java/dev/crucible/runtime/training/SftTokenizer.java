package dev.crucible.runtime.training;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Tokenises one SFT conversation with the assistant's tokens marked for training. Turn {@code i}'s trained span is
 * what rendering the conversation through message {@code i} adds to rendering the messages before it with a
 * generation prompt: the assistant's content and the template's end of turn (for Qwen3, also the empty think block
 * its template writes), as a response-only data collator masks it. When every turn's rendering is a prefix of the
 * whole conversation's, one sequence carries all trained turns; templates that render earlier turns differently once
 * later ones follow (Qwen3 drops their think blocks) give one sequence per trained turn instead.
 */
public final class SftTokenizer {

    private final TrainingModel model;
    private final boolean lastTurnOnly;

    public SftTokenizer(TrainingModel model, boolean lastTurnOnly) {
        this.model = model;
        this.lastTurnOnly = lastTurnOnly;
    }

    /**
     * @param messages the conversation, OpenAI chat messages, its last one the assistant's
     * @param tools    the OpenAI function tools it was written with, empty when none
     * @param where    names the conversation in messages, e.g. {@code training data line 4}
     * @throws TrainingInputException naming {@code where} when the template refuses the conversation
     */
    public List<TokenizedTurns.Turns> tokenize(List<Map<String, Object>> messages, List<Map<String, Object>> tools,
            String where) {
        List<Integer> turns = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            if ("assistant".equals(messages.get(i).get("role"))) {
                turns.add(i);
            }
        }
        if (lastTurnOnly && !turns.isEmpty()) {
            turns = List.of(turns.getLast());
        }
        String whole = render(messages, tools, where, messages.size(), false);
        List<String[]> spans = new ArrayList<>();
        boolean nested = true;
        for (int i : turns) {
            String before = render(messages, tools, where, i, true);
            String through = render(messages, tools, where, i + 1, false);
            spans.add(new String[] {before, through});
            nested &= through.startsWith(before) && whole.startsWith(through);
        }
        List<TokenizedTurns.Turns> out = new ArrayList<>();
        if (nested) {
            TokenizedTurns sequence = new TokenizedTurns(model.tokenizer());
            int at = 0;
            for (String[] span : spans) {
                sequence.text(whole.substring(at, span[0].length()));
                sequence.trainedText(whole.substring(span[0].length(), span[1].length()));
                at = span[1].length();
            }
            sequence.text(whole.substring(at));
            out.add(sequence.build(model.maxLength(), where));
        } else {
            for (String[] span : spans) {
                out.add(new TokenizedTurns(model.tokenizer()).text(span[0])
                        .trainedText(span[1].substring(span[0].length())).build(model.maxLength(), where));
            }
        }
        return out;
    }

    private String render(List<Map<String, Object>> messages, List<Map<String, Object>> tools, String where,
            int count, boolean generationPrompt) {
        return model.render(messages.subList(0, count), tools, generationPrompt, false, where);
    }
}

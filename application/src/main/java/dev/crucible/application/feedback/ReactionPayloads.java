package dev.crucible.application.feedback;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.feedback.FeedbackRules;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Weave's {@code process_feedback_payload}: a {@code wandb.reaction.1} payload must hold exactly one emoji
 * (rule 12) and gains {@code alias}, {@code detoned} and {@code detoned_alias}; other types are kept as sent.
 */
final class ReactionPayloads {

    private ReactionPayloads() {
    }

    /** The payload to store for {@code feedbackType}; its emoji is known to be a string (rule 2 ran). */
    static Outcome<Map<String, Object>> process(String feedbackType, Map<String, Object> payload) {
        if (!FeedbackRules.REACTION_TYPE.equals(feedbackType)) {
            return Outcome.done(payload);
        }
        String emoji = (String) payload.get("emoji");
        if (EmojiNames.count(emoji) != 1) {
            return Outcome.refused(
                    Refusal.invalid("payload", "Value of emoji key in payload must be exactly one emoji"));
        }
        Map<String, Object> processed = new LinkedHashMap<>(payload);
        processed.put("alias", EmojiNames.demojize(emoji));
        String detoned = EmojiNames.detone(emoji);
        processed.put("detoned", detoned);
        processed.put("detoned_alias", EmojiNames.demojize(detoned));
        return Outcome.done(processed);
    }
}

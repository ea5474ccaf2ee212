package dev.crucible.runtime.training;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.trajectory.History;
import dev.crucible.domain.trajectory.HistoryItem;
import dev.crucible.runtime.template.ChatTemplate;
import dev.crucible.testsupport.tokenizer.CharTokenizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A ChatML template over {@link CharTokenizer}, and builders of messages and sampled choices. */
final class TrainingFixtures {

    static final String CHATML = "{%- for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + "
            + "message['content'] + '<|im_end|>' + '\\n' }}{%- endfor %}"
            + "{%- if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{%- endif %}";

    private TrainingFixtures() {
    }

    static TrainingModel model(int maxLength) {
        ChatTemplate template = ((Outcome.Done<ChatTemplate>) ChatTemplate.compile(CHATML)).value();
        return new TrainingModel(new CharTokenizer(), template, Map.of(), maxLength);
    }

    static Map<String, Object> message(String role, String content) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("role", role);
        m.put("content", content);
        return m;
    }

    /** A choice whose logprobs name each sampled token as {@code token_id:N}, each with logprob -0.5. */
    static Map<String, Object> choice(String sampledText, boolean endToken) {
        List<Object> content = new ArrayList<>();
        for (char c : sampledText.toCharArray()) {
            content.add(Map.of("token", "token_id:" + CharTokenizer.id(c), "logprob", -0.5));
        }
        if (endToken) {
            content.add(Map.of("token", "token_id:" + CharTokenizer.IM_END, "logprob", -0.25));
        }
        Map<String, Object> choice = new LinkedHashMap<>();
        choice.put("finish_reason", "stop");
        choice.put("index", 0);
        choice.put("message", message("assistant", sampledText));
        choice.put("logprobs", Map.of("content", content));
        return choice;
    }

    static History history(List<Map<String, Object>> items) {
        return new History(items.stream().map(HistoryItem::of).toList(), List.of());
    }
}

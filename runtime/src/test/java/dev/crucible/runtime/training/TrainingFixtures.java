package dev.crucible.runtime.training;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.runtime.template.ChatTemplate;
import dev.crucible.testsupport.tokenizer.CharTokenizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A ChatML template over {@link CharTokenizer}, and builders of messages, turns and sampled choices. */
final class TrainingFixtures {

    static final String CHATML = "{%- for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + "
            + "message['content'] + '<|im_end|>' + '\\n' }}{%- endfor %}"
            + "{%- if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{%- endif %}";

    private TrainingFixtures() {
    }

    static TrainingModel model(int maxLength) {
        ChatTemplate template = ((Outcome.Done<ChatTemplate>) ChatTemplate.compile(CHATML)).value();
        CharTokenizer tokenizer = new CharTokenizer();
        return new TrainingModel(tokenizer, template, Map.of(), maxLength, tokenizer.vocabSize());
    }

    static Map<String, Object> message(String role, String content) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("role", role);
        m.put("content", content);
        return m;
    }

    /** A message the client wrote, as a turn. */
    static Conversation.Turn said(String role, String content) {
        return new Conversation.Turn(message(role, content), false, Optional.empty());
    }

    /** A choice whose sampled tokens are written {@code token_id:N}, each with logprob -0.5. */
    static Conversation.Turn choice(String sampledText, boolean endToken) {
        List<Conversation.Token> content = new ArrayList<>();
        for (char c : sampledText.toCharArray()) {
            content.add(named(CharTokenizer.id(c), -0.5));
        }
        if (endToken) {
            content.add(named(CharTokenizer.IM_END, -0.25));
        }
        return sampled(sampledText, content);
    }

    /** A choice of {@code text} with {@code tokens} as its sampled tokens. */
    static Conversation.Turn sampled(String text, List<Conversation.Token> tokens) {
        return new Conversation.Turn(message("assistant", text), true, Optional.of(tokens));
    }

    private static Conversation.Token named(int id, double logprob) {
        return new Conversation.Token("token_id:" + id, true, (long) id, List.of(), logprob);
    }

    static Conversation conversation(Conversation.Turn... turns) {
        return new Conversation(List.of(turns), List.of());
    }
}

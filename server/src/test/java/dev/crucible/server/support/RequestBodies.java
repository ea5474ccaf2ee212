package dev.crucible.server.support;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Request bodies as real clients send them. */
public final class RequestBodies {

    private RequestBodies() {
    }

    /**
     * A chat completion on {@link TestServer#BASE_MODEL} with one user message, then {@code pairs} (key, value, key,
     * value, …) put over it; the map stays mutable.
     */
    public static Map<String, Object> chat(String userContent, Object... pairs) {
        Map<String, Object> body = new HashMap<>();
        body.put("model", TestServer.BASE_MODEL);
        body.put("messages", List.of(Map.of("role", "user", "content", userContent)));
        return with(body, pairs);
    }

    /** {@code body} with {@code pairs} (key, value, key, value, …) put over it. */
    public static Map<String, Object> with(Map<String, Object> body, Object... pairs) {
        for (int i = 0; i < pairs.length; i += 2) {
            body.put((String) pairs[i], pairs[i + 1]);
        }
        return body;
    }

    /**
     * Feedback as the Weave client creates it: on an answer object of {@code project} ({@code team/project}), of
     * {@code feedbackType}, with {@code payload} and no creator, then {@code pairs} put over it; the map stays mutable.
     */
    public static Map<String, Object> feedback(String project, String feedbackType, Object payload, Object... pairs) {
        Map<String, Object> body = new HashMap<>();
        body.put("project_id", project);
        body.put("weave_ref", "weave:///" + project + "/object/answer:abc123");
        body.put("feedback_type", feedbackType);
        body.put("payload", payload);
        body.put("creator", null);
        return with(body, pairs);
    }

    /** An annotation of {@code value} under the latest version of the project's annotation spec {@code spec}. */
    public static Map<String, Object> annotation(String project, String spec, Object value) {
        return feedback(project, "wandb.annotation." + spec, Map.of("value", value), "annotation_ref",
                "weave:///" + project + "/object/" + spec + ":latest");
    }

    public static Map<String, Object> createModel(String project, String name) {
        Map<String, Object> body = new HashMap<>();
        body.put("entity", null);
        body.put("project", project);
        body.put("name", name);
        body.put("base_model", TestServer.BASE_MODEL);
        body.put("return_existing", true);
        return body;
    }

    /** One group of two scored trajectories, the second carrying a sampled choice with token-id logprobs. */
    public static List<Map<String, Object>> trajectoryGroups(double rewardA, double rewardB) {
        Map<String, Object> choice = Map.of("finish_reason", "stop", "index", 0,
                "message", Map.of("role", "assistant", "content", "4"),
                "logprobs", Map.of("content", List.of(Map.of("token", "token_id:19", "logprob", -0.1, "bytes", List.of(52),
                        "top_logprobs", List.of()))));
        Map<String, Object> a = Map.of("messages_and_choices", List.of(
                Map.of("role", "user", "content", "2+2?"), Map.of("role", "assistant", "content", "5")),
                "reward", rewardA, "metrics", Map.of("correct", false), "tools", List.of());
        Map<String, Object> b = Map.of("messages_and_choices", List.of(Map.of("role", "user", "content", "2+2?"), choice),
                "reward", rewardB, "metrics", Map.of("correct", true), "additional_histories", List.of());
        return List.of(Map.of("trajectories", List.of(a, b), "exceptions", List.of(), "metadata", Map.of(), "logs", List.of()));
    }

    public static Map<String, Object> rlJob(String modelId) {
        HashMap<String, Object> config = new HashMap<>();
        config.put("learning_rate", 5e-6);
        config.put("epsilon", null);
        config.put("ppo", false);
        return Map.of("model_id", modelId, "trajectory_groups", trajectoryGroups(0.0, 1.0), "experimental_config", config);
    }
}

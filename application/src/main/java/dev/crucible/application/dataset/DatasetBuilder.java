package dev.crucible.application.dataset;

import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.dataset.DatasetKind;
import dev.crucible.domain.dataset.FeedbackPredicate;
import dev.crucible.kernel.python.PythonJson;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Builds a dataset's rows from stored completions (in storing order) and their feedback, pure and deterministic.
 * A completion counts through its latest feedback row; one without an answer message is skipped.
 *
 * <ul>
 *   <li>{@code sft}: {@code {"messages": [...request, answer]}} for every completion whose row passes;
 *   <li>{@code preference}: per distinct input, the best- and worst-scored answer as OpenAI's DPO line
 *       {@code {"input": {"messages"}, "preferred_output": [answer], "non_preferred_output": [answer]}}, when
 *       their scores differ;
 *   <li>{@code rl}: per distinct input with at least two scored answers, a trajectory group
 *       {@code {"trajectories": [{"messages_and_choices": [...request, choice], "reward"}]}}, the shape an RL job's
 *       {@code trajectory_groups} take.
 * </ul>
 * An empty result is refused, naming {@code filter}.
 */
public final class DatasetBuilder {

    private static final PythonJson LINE = PythonJson.DEFAULT.ensureAscii(false).separators(",", ":");
    private static final PythonJson KEY = LINE.sortKeys(true);

    private DatasetBuilder() {
    }

    /**
     * The rows of a {@code kind} dataset.
     *
     * @param feedback every feedback row of the predicate's type on these completions, any order
     * @param rewards  scores answers for {@code preference} and {@code rl}
     */
    public static Outcome<DatasetSnapshot> build(DatasetKind kind, FeedbackPredicate predicate,
            List<StoredCompletion> completions, List<CompletionFeedback> feedback, RewardSource rewards) {
        Map<String, CompletionFeedback> latest = new LinkedHashMap<>();
        feedback.stream().sorted(Comparator.comparing(CompletionFeedback::created).thenComparing(CompletionFeedback::id))
                .forEach(row -> latest.put(row.completion(), row));
        List<StoredCompletion> answered = completions.stream().filter(c -> answer(c).isPresent()).toList();
        Rows rows = new Rows();
        switch (kind) {
            case SFT -> answered.forEach(c -> {
                CompletionFeedback row = latest.get(c.id());
                if (row != null && predicate.passes(row.payload())) {
                    rows.add(Map.of("messages", chat(c)), List.of(c), List.of(row));
                }
            });
            case PREFERENCE -> scoredByInput(answered, latest, rewards).values().forEach(group -> {
                Scored best = group.stream().max(Comparator.comparingDouble(Scored::score)).orElseThrow();
                Scored worst = group.stream().min(Comparator.comparingDouble(Scored::score)).orElseThrow();
                if (best.score() > worst.score()) {
                    rows.add(preference(best.completion(), worst.completion()), List.of(best.completion(),
                            worst.completion()), feedbackOf(List.of(best, worst)));
                }
            });
            case RL -> scoredByInput(answered, latest, rewards).values().forEach(group -> {
                if (group.size() >= 2) {
                    List<Map<String, Object>> trajectories = group.stream().map(DatasetBuilder::trajectory).toList();
                    rows.add(Map.of("trajectories", trajectories),
                            group.stream().map(Scored::completion).toList(), feedbackOf(group));
                }
            });
        }
        if (rows.lines.isEmpty()) {
            return Outcome.refused(Refusal.invalid("filter", "no " + kind.wireName() + " rows: " + empty(kind,
                    completions.size(), latest.size())));
        }
        return Outcome.done(new DatasetSnapshot(rows.lines, List.copyOf(rows.completions),
                List.copyOf(rows.feedback)));
    }

    private static String empty(DatasetKind kind, int completions, int rated) {
        String read = "the filter matched " + completions + " stored completion(s), " + rated
                + " with feedback of the type";
        return switch (kind) {
            case SFT -> read + ", none passing the predicate";
            case PREFERENCE -> read + "; no input has two answers with different scores";
            case RL -> read + "; no input has two scored answers";
        };
    }

    private record Scored(StoredCompletion completion, double score, Optional<CompletionFeedback> feedback) {
    }

    /** Scored answers grouped by their request messages, groups in order of their first answer. */
    private static Map<String, List<Scored>> scoredByInput(List<StoredCompletion> completions,
            Map<String, CompletionFeedback> latest, RewardSource rewards) {
        Map<String, List<Scored>> groups = new LinkedHashMap<>();
        for (StoredCompletion c : completions) {
            Optional<CompletionFeedback> row = Optional.ofNullable(latest.get(c.id()));
            OptionalDouble score = rewards.score(c, row);
            if (score.isPresent() && Double.isFinite(score.getAsDouble())) {
                groups.computeIfAbsent(KEY.dumps(c.messages()), k -> new ArrayList<>())
                        .add(new Scored(c, score.getAsDouble(), row));
            }
        }
        return groups;
    }

    private static List<CompletionFeedback> feedbackOf(List<Scored> scored) {
        return scored.stream().flatMap(s -> s.feedback().stream()).toList();
    }

    private static Map<String, Object> preference(StoredCompletion preferred, StoredCompletion rejected) {
        return Map.of("input", Map.of("messages", preferred.messages()),
                "preferred_output", List.of(answer(preferred).orElseThrow()),
                "non_preferred_output", List.of(answer(rejected).orElseThrow()));
    }

    private static List<Map<String, Object>> chat(StoredCompletion c) {
        List<Map<String, Object>> messages = new ArrayList<>(c.messages());
        messages.add(answer(c).orElseThrow());
        return messages;
    }

    private static Map<String, Object> trajectory(Scored scored) {
        Map<String, Object> trajectory = new LinkedHashMap<>();
        trajectory.put("messages_and_choices", history(scored.completion()));
        trajectory.put("reward", scored.score());
        return trajectory;
    }

    private static List<Map<String, Object>> history(StoredCompletion c) {
        Map<String, Object> choice = new LinkedHashMap<>();
        Map<String, Object> first = c.choices().getFirst();
        choice.put("index", 0);
        choice.put("message", answer(c).orElseThrow());
        if (first.get("finish_reason") != null) {
            choice.put("finish_reason", first.get("finish_reason"));
        }
        List<Map<String, Object>> items = new ArrayList<>(c.messages());
        items.add(choice);
        return items;
    }

    /** The first choice's message as a chat message: its role, content and tool calls, without nulls. */
    static Optional<Map<String, Object>> answer(StoredCompletion c) {
        if (c.choices().isEmpty() || !(c.choices().getFirst().get("message") instanceof Map<?, ?> message)) {
            return Optional.empty();
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("role", "assistant");
        for (String key : List.of("content", "tool_calls")) {
            // vLLM answers "tool_calls": [] when no tool was called; OpenAI's chat format refuses an empty list
            if (message.get(key) != null && !(message.get(key) instanceof List<?> list && list.isEmpty())) {
                out.put(key, message.get(key));
            }
        }
        return out.containsKey("content") || out.containsKey("tool_calls") ? Optional.of(out) : Optional.empty();
    }

    /** The rows as built, and the ids that went into them, each once. */
    private static final class Rows {
        final List<String> lines = new ArrayList<>();
        final Set<String> completions = new LinkedHashSet<>();
        final Set<String> feedback = new LinkedHashSet<>();

        void add(Map<String, Object> line, List<StoredCompletion> from, List<CompletionFeedback> rows) {
            lines.add(LINE.dumps(ordered(line)));
            from.forEach(c -> completions.add(c.id()));
            rows.forEach(r -> feedback.add(r.id()));
        }

        /** Map.of has no order; a line's keys go in the order the formats document. */
        private static Map<String, Object> ordered(Map<String, Object> line) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (String key : List.of("input", "preferred_output", "non_preferred_output", "messages",
                    "trajectories")) {
                if (line.containsKey(key)) {
                    out.put(key, line.get(key));
                }
            }
            return out;
        }
    }
}

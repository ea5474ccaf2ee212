package dev.crucible.application.dataset;

import dev.crucible.application.job.dataset.JsonLineParser;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.reward.RewardExample;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.Refusal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * A dataset as a reward model's labelled examples, the prompt and answer texts read as {@link RewardModelScores}
 * reads a stored completion's (so a model fitted here scores datasets' completions on the same texts):
 * <ul>
 * <li>{@code preference}: each pair's preferred answer is a good example and its other answer a bad one;</li>
 * <li>{@code rl}: each trajectory is good when its reward is above {@code threshold}, by default the median reward of
 * the dataset (so about half are good whatever the reward's scale).</li>
 * </ul>
 * An {@code sft} dataset holds only answers its feedback kept, one label, and is refused. The rows are read with the
 * kernel's {@link JsonReader}, in the shapes {@link DatasetBuilder} writes.
 */
public record DatasetRewardExamples(ReadDatasetContentUseCase datasets, JsonLineParser parser) {

    static final String PARAM = "dataset";

    public DatasetRewardExamples {
        Objects.requireNonNull(datasets, "datasets");
        Objects.requireNonNull(parser, "parser");
    }

    /** The examples of the caller's dataset {@code id}; another entity's or an unknown one is a 404. */
    public Outcome<List<RewardExample>> examples(Caller caller, String id, OptionalDouble threshold) {
        return switch (datasets.content(caller, id)) {
            case Outcome.Refused<DatasetContent> refused -> Outcome.refused(new Refusal(refused.refusal().reason(),
                    refused.refusal().message(), PARAM));
            case Outcome.Done<DatasetContent> done -> switch (done.value().dataset().kind()) {
                case PREFERENCE -> Outcome.done(preferences(done.value()));
                case RL -> Outcome.done(labelled(trajectories(done.value()), threshold));
                case SFT -> Outcome.refused(Refusal.invalid(PARAM, "dataset " + id + " is an sft dataset: it holds "
                        + "only the answers its feedback kept, one label; fit from a preference or rl dataset"));
            };
        };
    }

    private List<RewardExample> preferences(DatasetContent content) {
        List<RewardExample> examples = new ArrayList<>();
        for (String line : content) {
            JsonReader row = row(line);
            String prompt = RewardModelScores.prompt(raw(row.requireObject("input").objects("messages")));
            examples.add(new RewardExample(prompt, onlyAnswer(row, "preferred_output"), true));
            examples.add(new RewardExample(prompt, onlyAnswer(row, "non_preferred_output"), false));
        }
        return examples;
    }

    /** A trajectory's prompt and answer texts with its reward. */
    private record Scored(String prompt, String answer, double reward) {
    }

    private List<Scored> trajectories(DatasetContent content) {
        List<Scored> scored = new ArrayList<>();
        for (String line : content) {
            for (JsonReader trajectory : row(line).objects("trajectories")) {
                List<Map<String, Object>> prompt = new ArrayList<>();
                String answer = "";
                for (JsonReader entry : trajectory.objects("messages_and_choices")) {
                    if (entry.present("message")) {
                        answer = RewardModelScores.answer(entry.requireObject("message").raw());
                    } else {
                        prompt.add(entry.raw());
                    }
                }
                scored.add(new Scored(RewardModelScores.prompt(prompt), answer,
                        trajectory.number("reward").orElseThrow(() -> trajectory.missing("reward"))));
            }
        }
        return scored;
    }

    private static List<RewardExample> labelled(List<Scored> scored, OptionalDouble threshold) {
        double cut = threshold.orElseGet(() -> median(scored.stream().mapToDouble(Scored::reward).toArray()));
        return scored.stream().map(s -> new RewardExample(s.prompt(), s.answer(), s.reward() > cut)).toList();
    }

    private static double median(double[] values) {
        if (values.length == 0) {
            return 0;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /** One of the dataset's lines, as the builder wrote it. */
    private JsonReader row(String line) {
        if (!(parser.parse(line) instanceof Map<?, ?> map)) {
            throw new IllegalStateException("a dataset line is not a JSON object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = (Map<String, Object>) map;
        return new JsonReader(fields, "");
    }

    /** A DPO output: the one assistant message's text. */
    private static String onlyAnswer(JsonReader row, String key) {
        return RewardModelScores.answer(row.objects(key).getFirst().raw());
    }

    private static List<Map<String, Object>> raw(List<JsonReader> objects) {
        return objects.stream().map(JsonReader::raw).toList();
    }
}

package dev.crucible.application.dataset;

import dev.crucible.application.completion.StoredCompletionStore;
import dev.crucible.application.feedback.FeedbackStore;
import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.completion.StoredCompletionQuery;
import dev.crucible.domain.dataset.CheckpointRef;
import dev.crucible.domain.dataset.Dataset;
import dev.crucible.domain.dataset.DatasetFilter;
import dev.crucible.domain.dataset.DatasetId;
import dev.crucible.domain.dataset.DatasetRequest;
import dev.crucible.domain.feedback.FeedbackColumn;
import dev.crucible.domain.feedback.FeedbackExpr;
import dev.crucible.domain.feedback.FeedbackField;
import dev.crucible.domain.feedback.FeedbackQuery;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.paging.Page;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.usage.UsageProject;
import dev.crucible.kernel.invariant.NonNull;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Datasets of an entity: built from its stored completions ({@link StoredCompletionStore}) and their feedback
 * ({@link FeedbackStore}, rows whose {@code weave_ref} is {@code weave:///<entity>/<project>/call/<completion id>}),
 * kept by the {@link DatasetStore}. Thread-safe.
 */
public record DatasetService(StoredCompletionStore completions, FeedbackStore feedback, DatasetStore store,
        RewardModels rewardModels, DatasetLimits limits, Clock clock) implements CreateDatasetUseCase,
        GetDatasetUseCase, ListDatasetsUseCase, ReadDatasetContentUseCase, DeleteDatasetUseCase {

    static final String ID_PARAM = "dataset_id";
    private static final int READ_PAGE = StoredCompletionQuery.MAX_LIMIT;

    public DatasetService {
        NonNull.components(DatasetService.class, completions, feedback, store, rewardModels, limits, clock);
    }

    @Override
    public Outcome<Dataset> create(CreateDatasetUseCase.Command command) {
        DatasetRequest request = command.request();
        EntityName entity = command.caller().entity();
        return matching(entity, request).then(matched -> (request.rewardModel().isPresent()
                        ? rewardModels.source(command.caller(), request.rewardModel().get(), matched)
                        : Outcome.<RewardSource>done(new FeedbackReward(request.feedback())))
                // A reward model scores every answer: feedback then decides nothing and is not read.
                .then(source -> (request.rewardModel().isPresent() ? Outcome.done(List.<CompletionFeedback>of())
                        : rowsOf(entity, request, matched))
                        .then(rows -> DatasetBuilder.build(request.kind(), request.feedback(), matched, rows, source))))
                .then(snapshot -> {
                    if (snapshot.lines().size() > limits.maxRows()) {
                        return Outcome.refused(limits.tooManyRows(snapshot.lines().size()));
                    }
                    Dataset dataset = new Dataset(DatasetId.random(), entity, request.name(), request.project(),
                            request.kind(), command.query(), clock.instant(), snapshot.lines().size(),
                            snapshot.completions(), snapshot.feedback());
                    store.insert(dataset, snapshot.lines());
                    return Outcome.done(dataset);
                });
    }

    /** The project's completions the filter matches, oldest first; too large past the bound. */
    private Outcome<List<StoredCompletion>> matching(EntityName entity, DatasetRequest request) {
        DatasetFilter filter = request.filter();
        StoredCompletionQuery query = new StoredCompletionQuery(entity, Optional.of(request.project()),
                filter.model(), filter.metadata(), filter.createdAfter(), filter.createdBefore(), Set.of(),
                Optional.empty(), READ_PAGE, SortOrder.ASC);
        List<StoredCompletion> matched = new ArrayList<>();
        while (true) {
            List<StoredCompletion> page = completions.fetch(query);
            List<StoredCompletion> kept = page.size() > READ_PAGE ? page.subList(0, READ_PAGE) : page;
            matched.addAll(kept);
            if (matched.size() > limits.maxCompletions()) {
                return Outcome.refused(limits.tooManyCompletions());
            }
            if (page.size() <= READ_PAGE) {
                return Outcome.done(matched);
            }
            query = query.after(kept.getLast().id());
        }
    }

    /** The feedback rows of the predicate's type on {@code matched}. */
    private Outcome<List<CompletionFeedback>> rowsOf(EntityName entity, DatasetRequest request,
            List<StoredCompletion> matched) {
        String prefix = StoredCompletion.callRefPrefix(new UsageProject(entity, request.project()));
        FeedbackExpr filter = new FeedbackExpr.And(List.of(
                new FeedbackExpr.Compare(FeedbackExpr.Comparison.EQ,
                        new FeedbackExpr.GetField(new FeedbackField.Column(FeedbackColumn.FEEDBACK_TYPE)),
                        new FeedbackExpr.Literal(request.feedback().type())),
                new FeedbackExpr.Contains(new FeedbackExpr.GetField(new FeedbackField.Column(FeedbackColumn.SVC_REF)),
                        new FeedbackExpr.Literal(prefix), false)));
        FeedbackQuery query = new FeedbackQuery(new ProjectId(entity.value(), request.project()), List.of(),
                Optional.of(filter), List.of(), OptionalLong.empty(), OptionalLong.empty());
        Set<String> ids = matched.stream().map(StoredCompletion::id).collect(Collectors.toSet());
        return feedback.query(query).map(rows -> rows.stream()
                .filter(row -> row.get("svc_ref") instanceof String ref && ref.startsWith(prefix)
                        && ids.contains(ref.substring(prefix.length())))
                .map(row -> new CompletionFeedback(String.valueOf(row.get("id")),
                        ((String) row.get("svc_ref")).substring(prefix.length()), (Instant) row.get("created_at"),
                        payload(row.get("payload"))))
                .toList());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> payload(Object payload) {
        return payload instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    @Override
    public Outcome<Dataset> get(Caller caller, String id) {
        return DatasetId.parse(id).flatMap(parsed -> store.find(caller.entity(), parsed))
                .<Outcome<Dataset>>map(Outcome::done).orElseGet(() -> notFound(id));
    }

    @Override
    public Outcome<Page<Dataset>> list(Caller caller, PageRequest page) {
        return page.list(uuid -> store.find(caller.entity(), new DatasetId(uuid)), "datasets",
                after -> store.fetchPage(caller.entity(), page, after));
    }

    @Override
    public Outcome<DatasetContent> content(Caller caller, String id) {
        return get(caller, id).map(dataset -> new DatasetContent(dataset, store));
    }

    @Override
    public Outcome<DatasetId> delete(Caller caller, String id) {
        return get(caller, id).then(dataset -> {
            List<CheckpointRef> learned = store.deleteUnlessLearned(caller.entity(), dataset.id());
            return learned.isEmpty() ? Outcome.done(dataset.id())
                    : Outcome.refused(Refusal.conflict(ID_PARAM, "dataset " + dataset.id() + " trained checkpoints "
                            + learned + "; delete them first"));
        });
    }

    private static <T> Outcome<T> notFound(String id) {
        return Outcome.refused(Refusal.notFound(ID_PARAM, "No dataset found with id '"
                + (id.length() > 64 ? id.substring(0, 64) + "…" : id) + "'"));
    }
}

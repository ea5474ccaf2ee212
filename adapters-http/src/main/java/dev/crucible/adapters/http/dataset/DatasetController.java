package dev.crucible.adapters.http.dataset;

import dev.crucible.adapters.http.body.JsonBody;
import dev.crucible.adapters.http.paging.PageView;
import dev.crucible.adapters.http.paging.RequestParams;
import dev.crucible.application.dataset.CreateDatasetUseCase;
import dev.crucible.application.dataset.DatasetContent;
import dev.crucible.application.dataset.DeleteDatasetUseCase;
import dev.crucible.application.dataset.GetDatasetUseCase;
import dev.crucible.application.dataset.ListDatasetsUseCase;
import dev.crucible.application.dataset.ReadDatasetContentUseCase;
import dev.crucible.domain.dataset.Dataset;
import dev.crucible.domain.dataset.DatasetId;
import dev.crucible.domain.dataset.DatasetRequest;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.RefusalException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.server.types.files.StreamedFile;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Datasets built from the caller's stored completions and their feedback: create, list, get, download as JSONL
 * (streamed a page of rows at a time), delete. Another entity's dataset is a 404, as a missing one.
 */
@Controller("/v1/datasets")
@Secured(SecurityRule.IS_AUTHENTICATED)
@SecurityRequirement(name = "apiKey")
@ExecuteOn(TaskExecutors.BLOCKING)
record DatasetController(JsonBody json, CreateDatasetUseCase create, ListDatasetsUseCase list, GetDatasetUseCase get,
        ReadDatasetContentUseCase content, DeleteDatasetUseCase delete) {

    private static final String ID = "dataset_id";
    private static final MediaType JSONL = new MediaType("application/jsonl");

    @RequestBody(required = true, content = @Content(schema = @Schema(ref = "#/components/schemas/DatasetRequest")))
    @Post
    Map<String, Object> create(@Parameter(hidden = true) Caller caller, @Nullable @Body InputStream body) {
        DatasetRequest request = DatasetRequestReader.read(json.object(body));
        return DatasetViews.dataset(RefusalException.unwrap(create.create(new CreateDatasetUseCase.Command(caller,
                request, DatasetViews.query(request)))));
    }

    @Get
    PageView<Map<String, Object>> list(@Parameter(hidden = true) Caller caller, @Nullable @QueryValue String after,
            @Nullable @QueryValue String limit, @Nullable @QueryValue String order) {
        Optional<DatasetId> cursor = Optional.empty();
        if (after != null && !after.isEmpty()) {
            cursor = Optional.of(DatasetId.parse(after).orElseThrow(() -> RefusalException.invalid("after",
                    "after must be a dataset id (dataset-<32 hex digits>)")));
        }
        PageRequest page = RefusalException.unwrap(PageRequest.of(cursor.map(DatasetId::value),
                RequestParams.limit(limit), RequestParams.order(order)));
        return PageView.of(RefusalException.unwrap(list.list(caller, page)), DatasetViews::dataset,
                d -> d.id().toString());
    }

    @Get("/{dataset_id}")
    Map<String, Object> get(@Parameter(hidden = true) Caller caller, @PathVariable(ID) String id) {
        return DatasetViews.dataset(RefusalException.unwrap(get.get(caller, id)));
    }

    /** The rows as JSONL, one line each, read from the database as the response is written. */
    @Get(value = "/{dataset_id}/content", produces = "application/jsonl")
    StreamedFile content(@Parameter(hidden = true) Caller caller, @PathVariable(ID) String id) {
        DatasetContent rows = RefusalException.unwrap(content.content(caller, id));
        Iterator<String> lines = rows.iterator();
        InputStream stream = new SequenceInputStream(new Enumeration<InputStream>() {
            @Override
            public boolean hasMoreElements() {
                return lines.hasNext();
            }

            @Override
            public InputStream nextElement() {
                return new ByteArrayInputStream((lines.next() + "\n").getBytes(StandardCharsets.UTF_8));
            }
        });
        Dataset dataset = rows.dataset();
        return new StreamedFile(stream, JSONL).attach(dataset.id() + ".jsonl");
    }

    @Delete("/{dataset_id}")
    Map<String, Object> delete(@Parameter(hidden = true) Caller caller, @PathVariable(ID) String id) {
        DatasetId deleted = RefusalException.unwrap(delete.delete(caller, id));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", deleted.toString());
        body.put("object", "dataset.deleted");
        body.put("deleted", true);
        return body;
    }
}

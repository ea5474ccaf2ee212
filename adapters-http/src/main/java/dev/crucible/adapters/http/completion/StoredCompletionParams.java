package dev.crucible.adapters.http.completion;

import dev.crucible.adapters.http.body.StorableText;
import dev.crucible.adapters.http.paging.RequestParams;
import dev.crucible.domain.completion.CompletionMetadata;
import dev.crucible.domain.completion.StoredCompletionQuery;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.kernel.refusal.RefusalException;
import io.micronaut.http.HttpParameters;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The query of {@code GET /v1/chat/completions}: {@code model}, {@code metadata[key]=value} (each must match, within
 * metadata's bounds), {@code after}, {@code limit} (1 to 100, 20 by default) and {@code order} ({@code asc} by
 * default), as OpenAI takes them; anything malformed is a 400 naming it.
 */
final class StoredCompletionParams {

    private StoredCompletionParams() {
    }

    static StoredCompletionQuery read(EntityName entity, HttpParameters query) {
        Optional<String> model = text("model", query.get("model"));
        Map<String, Object> pairs = new LinkedHashMap<>();
        for (String name : query.names()) {
            if (name.startsWith("metadata[") && name.endsWith("]")) {
                pairs.put(name.substring("metadata[".length(), name.length() - 1), query.get(name));
            } else if (name.equals("metadata")) {
                throw RefusalException.invalid("metadata", "metadata filters are written metadata[key]=value");
            }
        }
        CompletionMetadata metadata = RefusalException.unwrap(CompletionMetadata.read("metadata", pairs));
        return RefusalException.unwrap(StoredCompletionQuery.ofRoute(entity, model, metadata.pairs(),
                text("after", query.get("after")), RequestParams.limit(query.get("limit")),
                order(query.get("order"))));
    }

    private static SortOrder order(String order) {
        return RequestParams.order(order == null || order.isEmpty() ? null : order);
    }

    /** A query or path value as text the store can look up: empty when absent; U+0000 or a lone surrogate is a 400. */
    static Optional<String> text(String param, String value) {
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        StorableText.problem(value).ifPresent(problem -> {
            throw RefusalException.invalid(param, param + " " + problem);
        });
        return Optional.of(value);
    }
}

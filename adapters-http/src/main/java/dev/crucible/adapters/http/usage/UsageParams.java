package dev.crucible.adapters.http.usage;

import dev.crucible.adapters.http.body.StorableText;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.usage.BucketWidth;
import dev.crucible.domain.usage.UsageField;
import dev.crucible.domain.usage.UsageQuery;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The query of {@code GET /v1/organization/usage/completions} and {@code .../training}, read as OpenAI's usage API
 * takes it. A list parameter may be repeated ({@code models=a&models=b}) or written with brackets as OpenAI's Python
 * library sends it ({@code models[]=a}); {@code group_by} may also be comma-separated
 * ({@code group_by=model,project_id}), as names in the other lists may hold commas. A single-valued parameter may be given once. Every
 * malformed parameter is a 400 naming it.
 */
final class UsageParams {

    /** The most values a filter list may hold, and the longest value. */
    static final int MAX_VALUES = 1000;
    static final int MAX_VALUE_LENGTH = 512;
    private static final String CURSOR_PREFIX = "usage:";

    private UsageParams() {
    }

    /** Reads {@code params} (each name with every value it was given) into the caller's query. */
    static UsageQuery read(Caller caller, Map<String, List<String>> params) {
        if (!values(params, "user_ids", false).isEmpty()) {
            throw RefusalException.invalid("user_ids", "user_ids is not supported: Crucible's API keys belong to "
                    + "an entity, not to a user; filter by api_key_ids");
        }
        long start = integer("start_time", single(params, "start_time")
                .orElseThrow(() -> RefusalException.invalid("start_time", "start_time is required (Unix seconds)")));
        OptionalLong end = optionalInteger("end_time", single(params, "end_time"));
        BucketWidth width = single(params, "bucket_width").map(w -> BucketWidth.of(w).orElseThrow(() ->
                RefusalException.invalid("bucket_width", "bucket_width must be one of 1m, 1h, 1d, got '"
                        + abbreviate(w) + "'"))).orElse(BucketWidth.DAY);
        Set<UsageField> groupBy = EnumSet.noneOf(UsageField.class);
        for (String name : values(params, "group_by", true)) {
            groupBy.add(UsageField.of(name).orElseThrow(() -> RefusalException.invalid("group_by",
                    "group_by must be some of project_id, model, api_key_id, batch, got '" + abbreviate(name) + "'"
                            + ("user_id".equals(name) || "service_tier".equals(name)
                            ? " (Crucible records no " + name + ")" : ""))));
        }
        Optional<Boolean> batch = single(params, "batch").map(UsageParams::bool);
        return RefusalException.unwrap(UsageQuery.of(caller.entity(), start, end, width, groupBy,
                filter(params, "project_ids"), filter(params, "models"), filter(params, "api_key_ids"), batch,
                optionalInteger("limit", single(params, "limit")), single(params, "page").map(UsageParams::cursor)
                        .map(OptionalLong::of).orElse(OptionalLong.empty())));
    }

    /** The opaque {@code next_page} of a page whose successor starts at {@code bucketStart}. */
    static String nextPage(long bucketStart) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((CURSOR_PREFIX + bucketStart).getBytes(StandardCharsets.UTF_8));
    }

    private static long cursor(String page) {
        try {
            String text = new String(Base64.getUrlDecoder().decode(page), StandardCharsets.UTF_8);
            if (text.startsWith(CURSOR_PREFIX)) {
                return Long.parseLong(text.substring(CURSOR_PREFIX.length()));
            }
        } catch (IllegalArgumentException e) {
            // not base64 or not a number: refused below (NumberFormatException is an IllegalArgumentException)
        }
        throw RefusalException.invalid("page", "page must be a next_page from a previous response, got '"
                + abbreviate(page) + "'");
    }

    private static boolean bool(String value) {
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw RefusalException.invalid("batch", "batch must be true or false, got '"
                    + abbreviate(value) + "'");
        };
    }

    private static Set<String> filter(Map<String, List<String>> params, String name) {
        List<String> values = values(params, name, false);
        if (values.size() > MAX_VALUES) {
            throw RefusalException.invalid(name, name + " may hold at most " + MAX_VALUES + " values, got "
                    + values.size());
        }
        for (String value : values) {
            if (value.length() > MAX_VALUE_LENGTH) {
                throw RefusalException.invalid(name, name + " values must be at most " + MAX_VALUE_LENGTH
                        + " characters, got " + value.length());
            }
            StorableText.problem(value).ifPresent(problem -> {
                throw RefusalException.invalid(name, name + " " + problem);
            });
        }
        return new LinkedHashSet<>(values);
    }

    /** Every value of {@code name} and {@code name[]}, split at commas when asked; empty values are dropped. */
    private static List<String> values(Map<String, List<String>> params, String name, boolean commas) {
        List<String> out = new ArrayList<>();
        for (String key : List.of(name, name + "[]")) {
            for (String value : params.getOrDefault(key, List.of())) {
                Arrays.stream(commas ? value.split(",") : new String[] {value}).map(String::strip)
                        .filter(v -> !v.isEmpty()).forEach(out::add);
            }
        }
        return out;
    }

    private static Optional<String> single(Map<String, List<String>> params, String name) {
        List<String> given = params.getOrDefault(name, List.of());
        if (given.size() > 1) {
            throw RefusalException.invalid(name, name + " must be given once, got " + given.stream()
                    .map(UsageParams::abbreviate).collect(Collectors.joining(", ")));
        }
        return given.stream().map(String::strip).filter(v -> !v.isEmpty()).findFirst();
    }

    private static OptionalLong optionalInteger(String name, Optional<String> value) {
        return value.map(v -> OptionalLong.of(integer(name, v))).orElse(OptionalLong.empty());
    }

    private static long integer(String name, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw RefusalException.invalid(name, name + " must be an integer, got '" + abbreviate(value) + "'");
        }
    }

    private static String abbreviate(String value) {
        return value.length() > 64 ? value.substring(0, 64) + "…" : value;
    }
}

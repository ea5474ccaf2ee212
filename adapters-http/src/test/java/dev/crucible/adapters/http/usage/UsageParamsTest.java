package dev.crucible.adapters.http.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.usage.BucketWidth;
import dev.crucible.domain.usage.UsageField;
import dev.crucible.domain.usage.UsageQuery;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;

/** The usage query's parameters as OpenAI's usage API takes them; every bad one a 400 naming it. */
class UsageParamsTest {

    private static final Caller ALICE = new Caller(new EntityName("alice"), UUID.randomUUID());
    private static final Set<String> PARAMS = Set.of("start_time", "end_time", "bucket_width", "group_by",
            "project_ids", "models", "api_key_ids", "user_ids", "batch", "limit", "page");

    @Example
    void defaultsAreOpenAisOneDayBucketsSevenPerPage() {
        UsageQuery query = read(Map.of("start_time", List.of("100")));
        assertEquals(100, query.startTime());
        assertEquals(OptionalLong.empty(), query.endTime());
        assertEquals(BucketWidth.DAY, query.width());
        assertEquals(7, query.limit());
        assertEquals(Set.of(), query.groupBy());
        assertEquals(Optional.empty(), query.batch());
    }

    @Example
    void listsAreRepeatedBracketedOrForGroupByCommaSeparated() {
        UsageQuery query = read(Map.of("start_time", List.of("0"), "group_by[]", List.of("model"),
                "group_by", List.of("project_id,api_key_id"), "models[]", List.of("a,b"), "models", List.of("c"),
                "project_ids", List.of("alice/p", "alice/q")));
        assertEquals(Set.of(UsageField.MODEL, UsageField.PROJECT_ID, UsageField.API_KEY_ID), query.groupBy());
        assertEquals(Set.of("a,b", "c"), query.models(), "a model name may hold a comma");
        assertEquals(Set.of("alice/p", "alice/q"), query.projectIds());
    }

    @Example
    void limitIsBoundedPerBucketWidth() {
        assertEquals(1440, read(Map.of("start_time", List.of("0"), "bucket_width", List.of("1m"),
                "limit", List.of("1440"))).limit());
        assertEquals("limit", refused(Map.of("start_time", List.of("0"), "bucket_width", List.of("1h"),
                "limit", List.of("169"))).param());
        assertEquals("limit", refused(Map.of("start_time", List.of("0"), "limit", List.of("32"))).param());
        assertEquals("limit", refused(Map.of("start_time", List.of("0"), "limit", List.of("0"))).param());
    }

    @Example
    void eachBadParameterIsNamed() {
        Map<String, Map<String, List<String>>> cases = Map.ofEntries(
                Map.entry("start_time", Map.of()),
                Map.entry("end_time", Map.of("start_time", List.of("10"), "end_time", List.of("10"))),
                Map.entry("bucket_width", Map.of("start_time", List.of("0"), "bucket_width", List.of("2d"))),
                Map.entry("group_by", Map.of("start_time", List.of("0"), "group_by", List.of("user_id"))),
                Map.entry("models", Map.of("start_time", List.of("0"), "models", List.of("a\u0000b"))),
                Map.entry("project_ids", Map.of("start_time", List.of("0"), "project_ids[]",
                        List.of("x".repeat(513)))),
                Map.entry("user_ids", Map.of("start_time", List.of("0"), "user_ids", List.of("u"))),
                Map.entry("batch", Map.of("start_time", List.of("0"), "batch", List.of("yes"))),
                Map.entry("page", Map.of("start_time", List.of("0"), "page", List.of("not-a-cursor"))),
                Map.entry("limit", Map.of("start_time", List.of("0"), "limit", List.of("ten"))));
        cases.forEach((param, params) -> assertEquals(param, refused(params).param(), params.toString()));
        assertEquals("start_time", refused(Map.of("start_time", List.of("1", "2"))).param(), "given twice");
        assertEquals("start_time", refused(Map.of("start_time", List.of("-1"))).param());
    }

    @Property
    void nextPageReadsBackAsTheBucketItNames(@ForAll @LongRange(min = 0, max = UsageQuery.MAX_TIME) long bucket) {
        UsageQuery query = read(Map.of("start_time", List.of("0"), "page", List.of(UsageParams.nextPage(bucket))));
        assertEquals(OptionalLong.of(bucket), query.page());
    }

    @Provide
    Arbitrary<Map<String, List<String>>> anyParams() {
        Arbitrary<String> names = Arbitraries.oneOf(Arbitraries.of(PARAMS), Arbitraries.of(PARAMS).map(n -> n + "[]"));
        Arbitrary<String> values = Arbitraries.oneOf(Arbitraries.strings().all().ofMaxLength(20),
                Arbitraries.longs().map(String::valueOf), Arbitraries.of("1m", "1h", "1d", "model", "true"));
        return Arbitraries.maps(names, values.list().ofMinSize(1).ofMaxSize(3)).ofMaxSize(6);
    }

    @Property
    void anyParametersAreAQueryOrARefusalNamingOneOfThem(@ForAll("anyParams") Map<String, List<String>> params) {
        Map<String, List<String>> given = new HashMap<>(params);
        try {
            UsageQuery query = UsageParams.read(ALICE, given);
            assertEquals(ALICE.entity(), query.entity());
        } catch (RefusalException e) {
            assertEquals(Refusal.Reason.INVALID, e.refusal().reason());
            assertTrue(PARAMS.contains(e.refusal().param()), e.refusal().toString());
        }
    }

    private static UsageQuery read(Map<String, List<String>> params) {
        return UsageParams.read(ALICE, params);
    }

    private static Refusal refused(Map<String, List<String>> params) {
        return assertThrows(RefusalException.class, () -> UsageParams.read(ALICE, params)).refusal();
    }
}

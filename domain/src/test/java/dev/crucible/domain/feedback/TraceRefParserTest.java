package dev.crucible.domain.feedback;

import static dev.crucible.domain.feedback.Drafts.refusal;
import static dev.crucible.domain.feedback.Drafts.value;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.kernel.refusal.Refusal;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TraceRefParserTest {

    private static TraceRef parse(String ref) {
        return value(TraceRefParser.parse(ref, "svc_ref"));
    }

    private static String problem(String ref) {
        Refusal refusal = refusal(TraceRefParser.parse(ref, "annotation_ref"));
        assertEquals("annotation_ref", refusal.param());
        return refusal.message();
    }

    @Test
    void parsesObjectRefWithNameAndVersion() {
        assertEquals(new ObjectRef("weave", new ProjectId("acme", "chat"), "quality", "v1", List.of()),
                parse("weave:///acme/chat/object/quality:v1"));
    }

    @Test
    void acceptsAnyScheme() {
        TraceRef ref = parse("wandb-artifact:///acme/chat/op/judge:abc");
        assertEquals(new OpRef("wandb-artifact", new ProjectId("acme", "chat"), "judge", "abc", List.of()), ref);
    }

    @Test
    void parsesEdgesAndPercentDecodesTheirValues() {
        NamedRef ref = (NamedRef) parse("weave:///e/p/object/obj:v/attr/rows/index/3/key/a%2Fb/id/r1");
        assertEquals(List.of(new RefEdge(RefEdge.Kind.ATTR, "rows"), new RefEdge(RefEdge.Kind.INDEX, "3"),
                new RefEdge(RefEdge.Kind.KEY, "a/b"), new RefEdge(RefEdge.Kind.ID, "r1")), ref.edges());
    }

    @Test
    void ignoresOneTrailingSlashAfterNameAndVersion() {
        assertEquals(List.of(), ((NamedRef) parse("weave:///e/p/object/obj:v/")).edges());
    }

    @Test
    void parsesCallAndTableRefsIgnoringLaterSegments() {
        assertEquals(new CallRef("weave", new ProjectId("e", "p"), "c1"), parse("weave:///e/p/call/c1/extra"));
        assertEquals(new TableRef("weave", new ProjectId("e", "p"), "d1"), parse("weave:///e/p/table/d1"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "weave:///e/p/object/nodigest | not enough values to unpack (expected 2, got 1)",
        "weave:///e/p/op/a:b:c | too many values to unpack (expected 2)",
        "weave:///e/p/obj/123:abc | Unknown ref kind: obj",
        "weave:///e/p/object/a:b/key | Extra fields must be key-value pairs.",
        "weave:///e/p/object/a:b/edge/x | Invalid extra edge name at index 0: ['edge', 'x']",
        "weave:///e/p/object/a:b/key/k/bad/x | Invalid extra edge name at index 2: ['key', 'k', 'bad', 'x']",
        "weave:///e/p/object/a:b/index/one | Invalid list edge value at index 1: ['index', 'one']",
    })
    void reportsWeaveParseErrors(String ref, String message) {
        assertEquals("Invalid ref: " + ref + ", " + message, problem(ref));
    }

    @Test
    void refusesMissingSchemeAndShortPaths() {
        assertEquals("Invalid ref: acme/chat, Invalid URI: acme/chat. Must start with <scheme>:///",
                problem("acme/chat"));
        assertEquals("Invalid ref: weave:///e/p, Invalid URI: weave:///e/p. Must have at least 3 parts",
                problem("weave:///e/p"));
        assertEquals("Invalid ref: weave:///e/p/object, Invalid URI: weave:///e/p/object. Must have at least 4 parts",
                problem("weave:///e/p/object"));
        assertEquals("Invalid ref: weave:////p/call/c, Invalid URI: weave:////p/call/c. Entity and project must "
                + "not be empty", problem("weave:////p/call/c"));
    }

    @Test
    void refusesSchemeThatDoesNotStartWithALetter() {
        assertEquals("Invalid ref: 1x:///e/p/call/c, Invalid URI: 1x:///e/p/call/c. Must start with <scheme>:///",
                problem("1x:///e/p/call/c"));
    }
}

package dev.crucible.domain.object;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertInvalid;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ObjectClassesTest {

    private static final Map<String, Object> SPEC = Map.of("field_schema", Map.of("type", "integer"));
    private static final Optional<String> ANNOTATION_SPEC = Optional.of("AnnotationSpec");

    @Test
    void aPlainValueHasNoBaseObjectClass() {
        assertEquals(Optional.empty(), value(ObjectClasses.baseObjectClass(Map.of("a", 1), Optional.empty())));
        assertEquals(Optional.empty(), value(ObjectClasses.baseObjectClass("text", Optional.empty())));
        assertEquals(Optional.empty(), value(ObjectClasses.baseObjectClass(null, Optional.empty())));
    }

    @Test
    void aRequestedAnnotationSpecIsTheBaseObjectClass() {
        assertEquals(ANNOTATION_SPEC, value(ObjectClasses.baseObjectClass(SPEC, ANNOTATION_SPEC)));
    }

    @Test
    void aValuePublishedByTheSdkDeclaresItsClasses() {
        Map<String, Object> direct = Map.of("_class_name", "AnnotationSpec",
                "_bases", List.of("BaseObject", "BaseModel"), "field_schema", Map.of());
        assertEquals(ANNOTATION_SPEC, value(ObjectClasses.baseObjectClass(direct, Optional.empty())));
        assertEquals(ANNOTATION_SPEC, value(ObjectClasses.baseObjectClass(direct, ANNOTATION_SPEC)));
        Map<String, Object> leaf = Map.of("_class_name", "MyModel", "_bases", List.of("Model", "Object", "BaseModel"));
        assertEquals(Optional.of("Model"), value(ObjectClasses.baseObjectClass(leaf, Optional.empty())));
        Map<String, Object> notWeave = Map.of("_class_name", "X", "_bases", List.of("Other", "BaseModel"));
        assertEquals(Optional.empty(), value(ObjectClasses.baseObjectClass(notWeave, Optional.empty())));
    }

    @Test
    void refusesAnnotationSpecsWithoutAnObjectFieldSchema() {
        assertInvalid(ObjectClasses.baseObjectClass("not-a-spec", ANNOTATION_SPEC), "val",
                "val must be an object when builtin_object_class is AnnotationSpec, got a string");
        assertInvalid(ObjectClasses.baseObjectClass(null, ANNOTATION_SPEC), "val",
                "val must be an object when builtin_object_class is AnnotationSpec, got null");
        assertInvalid(ObjectClasses.baseObjectClass(Map.of("unique_among_creators", true), ANNOTATION_SPEC),
                "val.field_schema",
                "val.field_schema must be an object (a JSON Schema) for an AnnotationSpec, got null");
        assertInvalid(ObjectClasses.baseObjectClass(Map.of("field_schema", List.of()), ANNOTATION_SPEC),
                "val.field_schema",
                "val.field_schema must be an object (a JSON Schema) for an AnnotationSpec, got an array");
    }

    @Test
    void refusesUnknownClassesAndAMismatchWithTheDeclaredClass() {
        assertInvalid(ObjectClasses.baseObjectClass(SPEC, Optional.of("Leaderboard")), "builtin_object_class",
                "Unknown object class: Leaderboard (this server knows only AnnotationSpec)");
        Map<String, Object> other = Map.of("_class_name", "SavedView", "_bases", List.of("BaseObject", "BaseModel"),
                "field_schema", Map.of());
        assertInvalid(ObjectClasses.baseObjectClass(other, ANNOTATION_SPEC), "builtin_object_class",
                "object_class must match val's defined object class: SavedView != AnnotationSpec");
    }
}

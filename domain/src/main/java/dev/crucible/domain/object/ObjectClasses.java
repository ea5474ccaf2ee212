package dev.crucible.domain.object;

import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An object's {@code base_object_class}, after Weave's {@code process_incoming_object_val}: a value published by
 * the SDK names its classes ({@code _class_name}, {@code _bases} ending in {@code BaseObject|Object, BaseModel});
 * otherwise a client may ask for a builtin class. Of Weave's builtin classes this server knows only
 * {@value #ANNOTATION_SPEC}, whose value must be an object with an object {@code field_schema} (a JSON Schema).
 * Unlike Weave, a requested class is checked but the value is stored as given: no pydantic defaults are added.
 */
public final class ObjectClasses {

    public static final String ANNOTATION_SPEC = "AnnotationSpec";
    private static final List<String> BASE_OBJECT_CLASSES = List.of("BaseObject", "Object");

    private ObjectClasses() {
    }

    /**
     * The base object class to store for {@code val} (empty when it has none), or a refusal naming
     * {@code builtin_object_class}, {@code val} or {@code val.field_schema}.
     *
     * @param builtin the class the client asked for; empty when none
     */
    public static Outcome<Optional<String>> baseObjectClass(Object val, Optional<String> builtin) {
        Optional<Declared> declared = declared(val);
        if (builtin.isEmpty()) {
            return Outcome.done(declared.map(Declared::baseClass));
        }
        String requested = builtin.get();
        if (!requested.equals(ANNOTATION_SPEC)) {
            return Outcome.refused(Refusal.invalid("builtin_object_class", "Unknown object class: " + requested
                    + " (this server knows only " + ANNOTATION_SPEC + ")"));
        }
        if (!(val instanceof Map<?, ?> fields)) {
            return Outcome.refused(Refusal.invalid("val", "val must be an object when builtin_object_class is "
                    + requested + ", got " + JsonReader.describe(val)));
        }
        if (declared.isPresent() && !declared.get().objectClass().equals(requested)) {
            return Outcome.refused(Refusal.invalid("builtin_object_class", "object_class must match val's defined "
                    + "object class: " + declared.get().objectClass() + " != " + requested));
        }
        if (!(fields.get("field_schema") instanceof Map<?, ?>)) {
            return Outcome.refused(Refusal.invalid("val.field_schema", "val.field_schema must be an object (a JSON "
                    + "Schema) for an " + ANNOTATION_SPEC + ", got "
                    + JsonReader.describe(fields.get("field_schema"))));
        }
        return Outcome.done(Optional.of(declared.map(Declared::baseClass).orElse(requested)));
    }

    /** The classes a value declares, as Weave's {@code get_object_classes}. */
    private record Declared(String objectClass, String baseClass) {
    }

    private static Optional<Declared> declared(Object val) {
        if (!(val instanceof Map<?, ?> fields) || !(fields.get("_bases") instanceof List<?> bases) || bases.size() < 2
                || !"BaseModel".equals(bases.getLast()) || !BASE_OBJECT_CLASSES.contains(bases.get(bases.size() - 2))
                || !(fields.get("_class_name") instanceof String objectClass)) {
            return Optional.empty();
        }
        if (bases.size() == 2) {
            return Optional.of(new Declared(objectClass, objectClass));
        }
        return bases.get(bases.size() - 3) instanceof String base ? Optional.of(new Declared(objectClass, base))
                : Optional.empty();
    }
}

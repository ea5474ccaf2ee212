package dev.crucible.application.feedback;

import dev.crucible.kernel.refusal.Excerpt;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.feedback.FeedbackDraft;
import dev.crucible.domain.feedback.FeedbackRules;
import dev.crucible.domain.feedback.NamedRef;
import java.util.Map;
import java.util.Optional;

/**
 * Rules 8, 8b and 9: annotation feedback's spec must exist in the project, be a valid spec (an object with a
 * {@code field_schema} object) within {@link SpecLimits} and {@link JsonSchemaSubset}, and {@code payload.value} must
 * match that schema ({@link JsonSchemaValidator}).
 */
record AnnotationSpecCheck(AnnotationSpecLookup specs, JsonSchemaValidator schemas, SpecLimits limits) {

    Outcome<FeedbackDraft> check(FeedbackDraft draft) {
        Optional<NamedRef> target = FeedbackRules.annotationTarget(draft);
        if (target.isEmpty()) {
            return Outcome.done(draft);
        }
        String ref = draft.annotationRef().orElseThrow();
        Optional<Object> spec = specs.findSpec(draft.project(), target.get());
        if (spec.isEmpty()) {
            return refuse("annotation_ref", "Annotation ref " + ref + " not found");
        }
        if (!(spec.get() instanceof Map<?, ?> fields) || !(fields.get("field_schema") instanceof Map<?, ?> schema)) {
            return refuse("annotation_ref", "Annotation ref " + ref + " is not a valid annotation spec");
        }
        // bounded first (a spec stored before these bounds, or without its class, meets them here), then read whole
        Optional<Refusal> problem = SpecSchema.check(schema, "field_schema", limits);
        if (problem.isPresent()) {
            return refuse("annotation_ref", "Annotation ref " + Excerpt.of(ref) + " has a field_schema this server "
                    + "cannot check: " + problem.get().param() + ": " + problem.get().message());
        }
        Optional<String> unsupported = JsonSchemaSubset.unsupportedKeyword(schema);
        if (unsupported.isPresent()) {
            return refuse("annotation_ref", "Annotation ref " + ref + " has a field_schema this server cannot check: "
                    + "unsupported JSON Schema keyword " + unsupported.get());
        }
        try {
            if (!schemas.matches(draft.payload().get("value"), (Map<?, ?>) JsonSchemaSubset.withoutIdentifiers(schema),
                    new PatternBudget(limits), limits.maxCheckWork())) {
                return refuse("payload", "Feedback payload does not match annotation spec");
            }
        } catch (JsonSchemaValidator.TooMuchWork e) {
            return refuse("payload", "Checking payload.value against annotation spec " + Excerpt.of(ref) + " takes "
                    + e.getMessage() + " (" + SpecLimits.MAX_CHECK_WORK_SETTING + "); send a shorter value or use a "
                    + "simpler spec");
        }
        return Outcome.done(draft);
    }

    private static Outcome<FeedbackDraft> refuse(String param, String message) {
        return Outcome.refused(Refusal.invalid(param, message));
    }
}

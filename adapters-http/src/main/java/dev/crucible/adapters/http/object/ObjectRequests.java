package dev.crucible.adapters.http.object;

import dev.crucible.application.object.CreateObjectUseCase;
import dev.crucible.application.object.ReadObjectUseCase;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.tenancy.Caller;
import java.util.Optional;

/** Request bodies of the object routes, mapped to commands, and refusals mapped back onto the body's fields. */
final class ObjectRequests {

    private static final String OBJ = "obj";

    private ObjectRequests() {
    }

    /**
     * {@code {"obj": {project_id, object_id, val, builtin_object_class?, set_base_object_class?}}}; {@code val} must
     * be present but may be null, and {@code set_base_object_class} is Weave's older name for
     * {@code builtin_object_class}, used only when that is absent.
     */
    static CreateObjectUseCase.Command create(Caller caller, JsonReader body) {
        JsonReader obj = body.requireObject(OBJ);
        String projectId = obj.requireString("project_id");
        String objectId = obj.requireString("object_id");
        if (!obj.raw().containsKey("val")) {
            throw obj.missing("val");
        }
        Optional<String> builtin = obj.string("builtin_object_class");
        Optional<String> older = obj.string("set_base_object_class");
        return new CreateObjectUseCase.Command(caller, projectId, objectId, obj.raw().get("val"),
                builtin.or(() -> older));
    }

    /** The use case names fields as inside {@code obj}; on the wire they are {@code obj.<field>}. */
    static <T> Outcome<T> onCreateBody(Outcome<T> outcome) {
        return switch (outcome) {
            case Outcome.Done<T> done -> done;
            case Outcome.Refused<T> refused -> {
                Refusal r = refused.refusal();
                String param = r.param() == null ? OBJ : OBJ + "." + r.param();
                yield Outcome.refused(new Refusal(r.reason(), r.message(), param, r.retryAfter()));
            }
        };
    }

    /** {@code {project_id, object_id, digest}}, where {@code digest} may also be {@code latest} or {@code v<N>}. */
    static ReadObjectUseCase.Command read(Caller caller, JsonReader body) {
        return new ReadObjectUseCase.Command(caller, body.requireString("project_id"), body.requireString("object_id"),
                body.requireString("digest"));
    }
}

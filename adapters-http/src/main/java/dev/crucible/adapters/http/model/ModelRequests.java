package dev.crucible.adapters.http.model;

import dev.crucible.application.model.CreateModelUseCase;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.domain.tenancy.Caller;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Request bodies of the model routes, mapped to commands. */
final class ModelRequests {

    static final int MAX_STEPS_PER_DELETE = 10_000;

    private ModelRequests() {
    }

    static CreateModelUseCase.Command create(Caller caller, JsonReader body) {
        return new CreateModelUseCase.Command(caller, body.string("entity"), body.requireString("project"),
                body.requireString("name"), body.requireString("base_model"), body.bool("return_existing").orElse(false));
    }

    static Set<Integer> steps(JsonReader body) {
        List<Object> items = body.requireArray("steps");
        if (items.size() > MAX_STEPS_PER_DELETE) {
            throw RefusalException.invalid("steps", "steps may hold at most " + MAX_STEPS_PER_DELETE + " items, got "
                    + items.size());
        }
        Set<Integer> steps = new HashSet<>();
        for (int i = 0; i < items.size(); i++) {
            Object item = items.get(i);
            if (!(item instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.doubleValue() < 0
                    || n.doubleValue() > Integer.MAX_VALUE) {
                throw RefusalException.invalid("steps", "steps[" + i + "] must be a non-negative integer, got "
                        + JsonReader.describe(item));
            }
            steps.add(n.intValue());
        }
        return steps;
    }
}

package dev.crucible.application.fakes;

import dev.crucible.application.model.BaseModelCatalog;
import java.util.List;

/** A catalog fixed at construction, like one read from configuration. */
public record StaticBaseModelCatalog(List<String> names) implements BaseModelCatalog {

    public StaticBaseModelCatalog {
        names = List.copyOf(names);
    }

    public static StaticBaseModelCatalog of(String... names) {
        return new StaticBaseModelCatalog(List.of(names));
    }
}

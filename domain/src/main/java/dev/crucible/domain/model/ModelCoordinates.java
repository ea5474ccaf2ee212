package dev.crucible.domain.model;

import dev.crucible.domain.tenancy.Names;
import dev.crucible.domain.tenancy.EntityName;
import java.util.Objects;

/** Where a trained model lives: {@code <entity>/<project>/<name>}, unique among models. */
public record ModelCoordinates(EntityName entity, String project, String name) {

    public ModelCoordinates {
        Objects.requireNonNull(entity, "entity");
        Names.require("project", project);
        Names.require("name", name);
    }

    /** The name chat requests use for the latest checkpoint, with the given scheme. */
    public String address(String scheme) {
        return scheme + ":///" + entity.value() + "/" + project + "/" + name;
    }
}

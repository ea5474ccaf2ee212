package dev.crucible.domain.model;

import dev.crucible.domain.tenancy.Names;
import dev.crucible.domain.tenancy.EntityName;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a chat request names a trained model: {@code <scheme>:///<entity>/<project>/<name>} with an optional
 * {@code :step<N>}, {@code :v<N>} (the same as step N) or {@code :latest} suffix. Any scheme is accepted.
 *
 * @param coordinates the model
 * @param step the requested step, or empty for the latest
 */
public record ModelAddress(ModelCoordinates coordinates, Optional<Integer> step) {

    private static final Pattern FORM = Pattern.compile(
            "[A-Za-z][A-Za-z0-9+.-]*:///([^/]+)/([^/]+)/([^/:]+)(?::(latest|step(\\d{1,9})|v(\\d{1,9})))?");

    public ModelAddress {
        Objects.requireNonNull(coordinates, "coordinates");
        Objects.requireNonNull(step, "step");
    }

    /** Parses a model address; empty when {@code text} is not one (it may then be a base model name). */
    public static Optional<ModelAddress> parse(String text) {
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        String entity = m.group(1);
        String project = m.group(2);
        String name = m.group(3);
        if (Names.problem("entity", entity) != null || Names.problem("project", project) != null
                || Names.problem("name", name) != null) {
            return Optional.empty();
        }
        String stepDigits = m.group(5) != null ? m.group(5) : m.group(6);
        Optional<Integer> step = Optional.ofNullable(stepDigits).map(Integer::valueOf);
        return Optional.of(new ModelAddress(new ModelCoordinates(new EntityName(entity), project, name), step));
    }
}

package dev.crucible.kernel.invariant;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;

/**
 * The null checks of a record's compact constructor in one call, failing as {@code Objects.requireNonNull(x, "x")}
 * does: a {@link NullPointerException} whose message is the component's name.
 */
public final class NonNull {

    private NonNull() {
    }

    /**
     * Requires each of {@code values} to be non-null. {@code values} are {@code type}'s checked components in
     * declaration order: its reference-typed components not marked {@link Nullable}, all of them or the first few
     * (a constructor may check the rest another way). Only a failure reads {@code type}'s components, for the name.
     *
     * @throws NullPointerException naming the first component whose value is null
     */
    public static void components(Class<? extends Record> type, Object... values) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                throw new NullPointerException(checkedComponent(type, i));
            }
        }
    }

    private static String checkedComponent(Class<? extends Record> type, int index) {
        return Arrays.stream(type.getRecordComponents())
                .filter(c -> !c.getType().isPrimitive() && !c.isAnnotationPresent(Nullable.class))
                .skip(index)
                .findFirst()
                .map(RecordComponent::getName)
                .orElseThrow(() -> new IllegalArgumentException(type.getName() + " has fewer than " + (index + 1)
                        + " components that must not be null"));
    }
}

package dev.crucible.kernel.refusal;

import java.util.Objects;
import java.util.function.Function;

/**
 * The result of an operation a caller can get refused: either the value or a {@link Refusal}.
 *
 * @param <T> the value on success
 */
public sealed interface Outcome<T> permits Outcome.Done, Outcome.Refused {

    record Done<T>(T value) implements Outcome<T> {
        public Done {
            Objects.requireNonNull(value, "value");
        }
    }

    record Refused<T>(Refusal refusal) implements Outcome<T> {
        public Refused {
            Objects.requireNonNull(refusal, "refusal");
        }
    }

    static <T> Outcome<T> done(T value) {
        return new Done<>(value);
    }

    static <T> Outcome<T> refused(Refusal refusal) {
        return new Refused<>(refusal);
    }

    /** Maps the value of a successful outcome; a refusal passes through unchanged. */
    default <R> Outcome<R> map(Function<? super T, ? extends R> mapper) {
        return switch (this) {
            case Done<T> done -> new Done<>(mapper.apply(done.value()));
            case Refused<T> refused -> new Refused<>(refused.refusal());
        };
    }

    /** The value, where a refusal would be a bug (such as a default that must resolve): it throws. */
    default T orElseThrow() {
        return switch (this) {
            case Done<T> done -> done.value();
            case Refused<T> refused -> throw new IllegalStateException(refused.refusal().message());
        };
    }

    /** Chains an operation that may itself be refused. */
    default <R> Outcome<R> then(Function<? super T, Outcome<R>> next) {
        return switch (this) {
            case Done<T> done -> next.apply(done.value());
            case Refused<T> refused -> new Refused<>(refused.refusal());
        };
    }
}

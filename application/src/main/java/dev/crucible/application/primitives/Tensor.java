package dev.crucible.application.primitives;

import java.lang.reflect.Array;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A dense array of numbers with a shape (Tinker's {@code TensorData}): the values in row-major order, as many as the
 * shape's product. Integer tensors carry token ids, float tensors weights, advantages and log-probabilities. Arrays are
 * copied on construction and on access; two tensors are equal when their kind, shape and values are.
 */
public abstract sealed class Tensor permits Tensor.Dense {

    private final int[] shape;

    private Tensor(int[] shape, int count) {
        this.shape = checkedShape(shape, count);
    }

    /** The sizes of each dimension; one dimension for the usual per-position inputs. */
    public final int[] shape() {
        return shape.clone();
    }

    /** How many values it holds: the product of {@link #shape()}. */
    public abstract int size();

    abstract Object array();

    @Override
    public final boolean equals(Object o) {
        return o instanceof Tensor t && t.getClass() == getClass() && Arrays.equals(shape, t.shape)
                && Objects.deepEquals(array(), t.array());
    }

    @Override
    public final int hashCode() {
        return Arrays.deepHashCode(new Object[] {shape, array()});
    }

    @Override
    public final String toString() {
        return getClass().getSimpleName() + Arrays.toString(shape);
    }

    /**
     * The one implementation of both kinds: {@code A} is the primitive array ({@code float[]} or {@code long[]}) and
     * {@code copy} its {@code clone}, so copying, sizing and comparing are written once.
     */
    private abstract static sealed class Dense<A> extends Tensor permits Floats, Ints {

        private final A values;
        private final UnaryOperator<A> copy;

        private Dense(A values, UnaryOperator<A> copy, int[] shape) {
            super(shape, Array.getLength(Objects.requireNonNull(values, "values")));
            this.values = copy.apply(values);
            this.copy = copy;
        }

        /** A copy of the values, in row-major order. */
        public final A values() {
            return copy.apply(values);
        }

        @Override
        public final int size() {
            return Array.getLength(values);
        }

        @Override
        final Object array() {
            return values;
        }
    }

    /** Float values (Tinker's {@code float32}; {@code bfloat16} is widened to this on reading). */
    public static final class Floats extends Dense<float[]> {

        public Floats(float[] values, int[] shape) {
            super(values, float[]::clone, shape);
        }

        /** A one-dimensional tensor of {@code values}. */
        public static Floats of(float... values) {
            return new Floats(values, new int[] {values.length});
        }
    }

    /** Integer values (Tinker's {@code int64}; {@code int32} is widened to this on reading). */
    public static final class Ints extends Dense<long[]> {

        public Ints(long[] values, int[] shape) {
            super(values, long[]::clone, shape);
        }

        /** A one-dimensional tensor of {@code values}. */
        public static Ints of(long... values) {
            return new Ints(values, new int[] {values.length});
        }
    }

    private static int[] checkedShape(int[] shape, int count) {
        if (shape == null || shape.length == 0) {
            throw new IllegalArgumentException("shape must have at least one dimension");
        }
        long product = 1;
        for (int size : shape) {
            if (size < 0) {
                throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " has a negative size");
            }
            product *= size;
        }
        if (product != count) {
            throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " holds " + product
                    + " values, got " + count);
        }
        return shape.clone();
    }
}

package dev.crucible.application.primitives;

import java.util.Arrays;

/**
 * A dense array of numbers with a shape (Tinker's {@code TensorData}): the values in row-major order, as many as the
 * shape's product. Integer tensors carry token ids, float tensors weights, advantages and log-probabilities. Arrays are
 * copied on construction and on access; two tensors are equal when their kind, shape and values are.
 */
public abstract sealed class Tensor permits Tensor.Floats, Tensor.Ints {

    private final int[] shape;

    private Tensor(int[] shape, Object values, int count) {
        if (values == null) {
            throw new NullPointerException("values");
        }
        this.shape = checkedShape(shape, count);
    }

    /** The sizes of each dimension; one dimension for the usual per-position inputs. */
    public final int[] shape() {
        return shape.clone();
    }

    /** How many values it holds: the product of {@link #shape()}. */
    public abstract int size();

    abstract boolean sameValues(Tensor other);

    abstract int valuesHash();

    @Override
    public final boolean equals(Object o) {
        return o instanceof Tensor t && t.getClass() == getClass() && Arrays.equals(shape, t.shape) && sameValues(t);
    }

    @Override
    public final int hashCode() {
        return 31 * Arrays.hashCode(shape) + valuesHash();
    }

    @Override
    public final String toString() {
        return getClass().getSimpleName() + Arrays.toString(shape);
    }

    /** Float values (Tinker's {@code float32}; {@code bfloat16} is widened to this on reading). */
    public static final class Floats extends Tensor {

        private final float[] values;

        public Floats(float[] values, int[] shape) {
            super(shape, values, values == null ? 0 : values.length);
            this.values = values.clone();
        }

        /** A one-dimensional tensor of {@code values}. */
        public static Floats of(float... values) {
            return new Floats(values, new int[] {values.length});
        }

        public float[] values() {
            return values.clone();
        }

        @Override
        public int size() {
            return values.length;
        }

        @Override
        boolean sameValues(Tensor other) {
            return Arrays.equals(values, ((Floats) other).values);
        }

        @Override
        int valuesHash() {
            return Arrays.hashCode(values);
        }
    }

    /** Integer values (Tinker's {@code int64}; {@code int32} is widened to this on reading). */
    public static final class Ints extends Tensor {

        private final long[] values;

        public Ints(long[] values, int[] shape) {
            super(shape, values, values == null ? 0 : values.length);
            this.values = values.clone();
        }

        /** A one-dimensional tensor of {@code values}. */
        public static Ints of(long... values) {
            return new Ints(values, new int[] {values.length});
        }

        public long[] values() {
            return values.clone();
        }

        @Override
        public int size() {
            return values.length;
        }

        @Override
        boolean sameValues(Tensor other) {
            return Arrays.equals(values, ((Ints) other).values);
        }

        @Override
        int valuesHash() {
            return Arrays.hashCode(values);
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

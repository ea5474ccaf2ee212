package dev.crucible.application.primitives;

import java.util.Arrays;

/**
 * A dense array of numbers with a shape (Tinker's {@code TensorData}): the values in row-major order, as many as the
 * shape's product. Integer tensors carry token ids, float tensors weights, advantages and log-probabilities. Arrays are
 * copied on construction and on access.
 */
public sealed interface Tensor permits Tensor.Floats, Tensor.Ints {

    /** The sizes of each dimension; one dimension for the usual per-position inputs. */
    int[] shape();

    /** How many values it holds: the product of {@link #shape()}. */
    int size();

    /** Float values (Tinker's {@code float32}; {@code bfloat16} is widened to this on reading). */
    record Floats(float[] values, int[] shape) implements Tensor {

        public Floats {
            shape = checkedShape(shape, values == null ? -1 : values.length);
            values = values.clone();
        }

        /** A one-dimensional tensor of {@code values}. */
        public static Floats of(float... values) {
            return new Floats(values, new int[] {values.length});
        }

        @Override
        public float[] values() {
            return values.clone();
        }

        @Override
        public int[] shape() {
            return shape.clone();
        }

        @Override
        public int size() {
            return values.length;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Floats f && Arrays.equals(values, f.values) && Arrays.equals(shape, f.shape);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(values) + Arrays.hashCode(shape);
        }

        @Override
        public String toString() {
            return "Floats" + Arrays.toString(shape);
        }
    }

    /** Integer values (Tinker's {@code int64}; {@code int32} is widened to this on reading). */
    record Ints(long[] values, int[] shape) implements Tensor {

        public Ints {
            shape = checkedShape(shape, values == null ? -1 : values.length);
            values = values.clone();
        }

        /** A one-dimensional tensor of {@code values}. */
        public static Ints of(long... values) {
            return new Ints(values, new int[] {values.length});
        }

        @Override
        public long[] values() {
            return values.clone();
        }

        @Override
        public int[] shape() {
            return shape.clone();
        }

        @Override
        public int size() {
            return values.length;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Ints t && Arrays.equals(values, t.values) && Arrays.equals(shape, t.shape);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(values) + Arrays.hashCode(shape);
        }

        @Override
        public String toString() {
            return "Ints" + Arrays.toString(shape);
        }
    }

    private static int[] checkedShape(int[] shape, int count) {
        if (count < 0) {
            throw new NullPointerException("values");
        }
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

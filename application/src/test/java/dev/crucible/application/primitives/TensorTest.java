package dev.crucible.application.primitives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TensorTest {

    @Test
    void holdsAsManyValuesAsItsShapeSays() {
        Tensor.Floats matrix = new Tensor.Floats(new float[] {1, 2, 3, 4, 5, 6}, new int[] {2, 3});

        assertEquals(6, matrix.size());
        assertArrayEquals(new int[] {2, 3}, matrix.shape());
        assertThrows(IllegalArgumentException.class, () -> new Tensor.Floats(new float[] {1, 2}, new int[] {3}));
        assertThrows(IllegalArgumentException.class, () -> new Tensor.Ints(new long[0], new int[0]));
        assertThrows(IllegalArgumentException.class, () -> new Tensor.Ints(new long[0], new int[] {-1, 0}));
        assertThrows(NullPointerException.class, () -> new Tensor.Ints(null, new int[] {0}));
    }

    @Test
    void equalWhenKindShapeAndValuesAre() {
        assertEquals(Tensor.Ints.of(1, 2), new Tensor.Ints(new long[] {1, 2}, new int[] {2}));
        assertEquals(Tensor.Ints.of(1, 2).hashCode(), new Tensor.Ints(new long[] {1, 2}, new int[] {2}).hashCode());
        assertNotEquals(Tensor.Ints.of(1, 2), Tensor.Floats.of(1, 2), "another kind");
        assertNotEquals(Tensor.Ints.of(1, 2), new Tensor.Ints(new long[] {1, 2}, new int[] {1, 2}), "another shape");
        assertNotEquals(Tensor.Floats.of(1, 2), Tensor.Floats.of(1, 3), "other values");
        assertEquals("Floats[2]", Tensor.Floats.of(1, 2).toString());
    }

    @Test
    void copiesItsArrays() {
        float[] values = {1, 2};
        int[] shape = {2};
        Tensor.Floats t = new Tensor.Floats(values, shape);
        values[0] = 9;
        shape[0] = 9;
        t.values()[1] = 9;
        t.shape()[0] = 9;

        assertEquals(Tensor.Floats.of(1, 2), t);
    }
}

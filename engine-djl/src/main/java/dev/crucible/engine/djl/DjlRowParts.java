package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.SparseFormat;
import java.util.List;

/**
 * A {@code [rows, columns]} matrix held as consecutive parts of whole rows, each under the 2 GiB one Java buffer (and
 * so one DJL array made from the file mapping) can hold: the embedding and the unembedding of a large vocabulary, e.g.
 * 152k × 3,584 F32 for a 7B model. With one part it is the plain matrix. Immutable; the parts belong to the model's
 * manager.
 *
 * @param parts the parts in row order, each {@code [rows_i, columns]}
 */
record DjlRowParts(List<NDArray> parts) {

    DjlRowParts {
        parts = List.copyOf(parts);
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("a matrix needs at least one part");
        }
    }

    /** The rows of {@code ids} ({@code [n]}, int64), {@code [n, columns]}: torch's embedding, part by part. */
    NDArray embedding(NDArray ids) {
        if (parts.size() == 1) {
            return lookup(ids, parts.getFirst());
        }
        // Each part looks up its own rows, the others' clamped into range and then zeroed by the mask.
        NDArray sum = null;
        long start = 0;
        for (NDArray part : parts) {
            long rows = part.getShape().get(0);
            NDArray local = ids.sub(start);
            NDArray inside = local.gte(0).logicalAnd(local.lt(rows)).toType(DataType.FLOAT32, false)
                    .expandDims(1);
            NDArray looked = lookup(local.clip(0, rows - 1), part).mul(inside);
            sum = sum == null ? looked : sum.add(looked);
            start += rows;
        }
        return sum;
    }

    /** {@code x @ matrix^T}: {@code [n, rows]}, one product per part, concatenated along the rows' axis. */
    NDArray linear(NDArray x) {
        if (parts.size() == 1) {
            return DjlOps.linear(x, parts.getFirst(), null);
        }
        NDList products = new NDList(parts.size());
        for (NDArray part : parts) {
            products.add(DjlOps.linear(x, part, null));
        }
        return NDArrays.concat(products, 1);
    }

    /**
     * {@code g @ matrix}: {@code [n, columns]} for {@code g [n, rows]}, the gradient {@link #linear}'s input gets from
     * its output's {@code g} (one product per part, over that part's columns of {@code g}, summed).
     */
    NDArray linearBackward(NDArray g) {
        if (parts.size() == 1) {
            return g.matMul(parts.getFirst());
        }
        NDArray sum = null;
        long start = 0;
        for (NDArray part : parts) {
            long rows = part.getShape().get(0);
            NDArray product = g.get(new NDIndex(":, {}:{}", start, start + rows)).matMul(part);
            sum = sum == null ? product : sum.addi(product);
            start += rows;
        }
        return sum;
    }

    private static NDArray lookup(NDArray ids, NDArray part) {
        return ids.getNDArrayInternal().embedding(ids, part, SparseFormat.DENSE).singletonOrThrow();
    }
}

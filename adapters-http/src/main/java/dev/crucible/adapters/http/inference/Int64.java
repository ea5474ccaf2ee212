package dev.crucible.adapters.http.inference;

import java.math.BigInteger;
import java.util.OptionalLong;

/** Integer fields declared with pydantic bounds ({@code Field(ge=…, le=…)}), refused as pydantic refuses them. */
final class Int64 {

    static final BigInteger MIN = BigInteger.valueOf(Long.MIN_VALUE);
    static final BigInteger MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private Int64() {
    }

    /** Field {@code key} in {@code [ge, le]}; empty when absent or null. */
    static OptionalLong read(ChatFields fields, String key, BigInteger ge, BigInteger le) {
        var value = fields.bigInteger(key);
        if (value.isEmpty()) {
            return OptionalLong.empty();
        }
        BigInteger v = value.get();
        Object input = fields.get(key);
        if (v.compareTo(ge) < 0) {
            throw SchemaError.of(fields.loc(key), "greater_than_equal", "Input should be greater than or equal to " + ge,
                    input, SchemaError.ctx("ge", ge));
        }
        if (v.compareTo(le) > 0) {
            throw SchemaError.of(fields.loc(key), "less_than_equal", "Input should be less than or equal to " + le,
                    input, SchemaError.ctx("le", le));
        }
        return OptionalLong.of(v.longValue());
    }

    /** Field {@code key} anywhere in the int64 range. */
    static OptionalLong read(ChatFields fields, String key) {
        return read(fields, key, MIN, MAX);
    }

    /** An unbounded integer saturated to the {@code int} range (only ranges checked later care beyond it). */
    static int toInt(long value) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, value));
    }
}

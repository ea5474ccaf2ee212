package dev.crucible.runtime.template;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.filter.Filter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code crucible_slice(start, stop, step)}: Python's {@code x[start:stop:step]} on a list or a string (by code point),
 * for the stepped slices Jinjava cannot parse; {@link JinjaExpressions} rewrites {@code x[::-1]} into it. A null bound
 * is an omitted one. Stateless.
 */
final class SliceFilter implements Filter {

    @Override
    public String getName() {
        return "crucible_slice";
    }

    @Override
    public Object filter(Object var, JinjavaInterpreter interpreter, Object[] args, Map<String, Object> kwargs) {
        int step = args.length > 2 && args[2] instanceof Number n ? n.intValue() : 1;
        if (step == 0) {
            throw new IllegalArgumentException("slice step cannot be zero");
        }
        List<Object> items = new ArrayList<>();
        switch (var) {
            case CharSequence s -> s.codePoints().forEach(items::add);
            case Iterable<?> iterable -> iterable.forEach(items::add);
            case null, default -> {
                return null;
            }
        }
        int length = items.size();
        int start = bound(args.length > 0 ? args[0] : null, length, step, step > 0 ? 0 : length - 1);
        int stop = bound(args.length > 1 ? args[1] : null, length, step, step > 0 ? length : -1);
        List<Object> picked = new ArrayList<>();
        for (int i = start; step > 0 ? i < stop : i > stop; i += step) {
            picked.add(items.get(i));
        }
        if (var instanceof CharSequence) {
            StringBuilder out = new StringBuilder();
            picked.forEach(cp -> out.appendCodePoint((Integer) cp));
            return out.toString();
        }
        return picked;
    }

    /** Python's {@code slice.indices}: a negative bound counts from the end, then clamps to the sequence. */
    private static int bound(Object value, int length, int step, int omitted) {
        if (!(value instanceof Number n)) {
            return omitted;
        }
        int i = n.intValue() < 0 ? n.intValue() + length : n.intValue();
        return step > 0 ? Math.clamp(i, 0, length) : Math.clamp(i, -1, length - 1);
    }

    @Override
    public Object filter(Object var, JinjavaInterpreter interpreter, String... args) {
        Object[] numbers = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            numbers[i] = args[i] == null ? null : Integer.valueOf(args[i]);
        }
        return filter(var, interpreter, numbers, Map.of());
    }
}

package dev.crucible.runtime.template;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.filter.Filter;
import java.util.Collection;
import java.util.Map;

/**
 * A filter run under the render's {@link Budget}: the deadline is checked before it runs, a number argument (a width, a
 * count) past the bound on strings is refused before it runs ({@code center(10**9)}, {@code batch(10**9, 'x')}), so are
 * the few filters whose result grows as a product of their arguments ({@code indent}: width × lines; {@code format}:
 * the widths inside the format; {@code tojson}: indent × nodes × depth), and its result is checked against the
 * bounds on strings and lists. Stateless when the filter is.
 */
record BoundedFilter(Filter filter) implements Filter {

    @Override
    public String getName() {
        return filter.getName();
    }

    @Override
    public Object filter(Object var, JinjavaInterpreter interpreter, Object[] args, Map<String, Object> kwargs) {
        Budget budget = Budget.of(interpreter);
        budget.tick();
        for (Object arg : args) {
            numberArgument(budget, arg);
        }
        kwargs.values().forEach(arg -> numberArgument(budget, arg));
        switch (getName()) {
            case "indent" -> budget.chars(text(var).length() + width(args, kwargs, "width", 4)
                    * (text(var).chars().filter(c -> c == '\n').count() + 1));
            case "format" -> formatWidths(budget, text(var));
            case "tojson" -> budget.chars(width(args, kwargs, "indent", 0) * nodes(var, 0, budget)
                    * Math.max(1, depth(var, 0, budget)));
            default -> { }
        }
        return budget.checked(filter.filter(var, interpreter, args, kwargs));
    }

    @Override
    public Object filter(Object var, JinjavaInterpreter interpreter, String... args) {
        return filter(var, interpreter, (Object[]) args, Map.of());
    }

    private static void numberArgument(Budget budget, Object arg) {
        if (arg instanceof Number n && Math.abs(n.doubleValue()) > budget.maxChars()) {
            budget.chars((long) Math.min(Long.MAX_VALUE, Math.abs(n.doubleValue())));
        }
    }

    private static String text(Object var) {
        return var == null ? "" : var.toString();
    }

    /** A number argument given by position (the first) or by name; a string indent counts its length. */
    private static long width(Object[] args, Map<String, Object> kwargs, String name, long omitted) {
        Object value = args.length > 0 ? args[0] : kwargs.get(name);
        return switch (value) {
            case null -> omitted;
            case Number n -> Math.max(0, n.longValue());
            case Boolean b -> b ? 1 : 0;
            default -> value.toString().length();
        };
    }

    /** Refuses a printf width or precision ({@code %1000000000d}) past the bound on strings. */
    private static void formatWidths(Budget budget, String format) {
        for (int i = format.indexOf('%'); i >= 0 && i + 1 < format.length(); i = format.indexOf('%', i + 1)) {
            long number = 0;
            for (int j = i + 1; j < format.length(); j++) {
                char c = format.charAt(j);
                if (c >= '0' && c <= '9') {
                    number = Math.min(Long.MAX_VALUE / 20, number * 10 + (c - '0'));
                    budget.chars(number);
                } else if (c == '.' || c == '-' || c == '+' || c == ' ' || c == '#' || c == ',' || c == '(') {
                    number = 0;
                } else {
                    break;
                }
            }
        }
    }

    private static long nodes(Object value, int depth, Budget budget) {
        budget.tick();
        if (depth > 200) {
            return 1;
        }
        long n = 1;
        if (value instanceof Map<?, ?> map) {
            for (Object item : map.values()) {
                n += nodes(item, depth + 1, budget);
            }
        } else if (value instanceof Collection<?> items) {
            for (Object item : items) {
                n += nodes(item, depth + 1, budget);
            }
        }
        return n;
    }

    private static long depth(Object value, int depth, Budget budget) {
        if (depth > 200) {
            return depth;
        }
        long deepest = depth;
        Collection<?> children = value instanceof Map<?, ?> map ? map.values()
                : value instanceof Collection<?> items ? items : java.util.List.of();
        for (Object child : children) {
            deepest = Math.max(deepest, depth(child, depth + 1, budget));
        }
        return deepest;
    }
}

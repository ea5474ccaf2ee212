package dev.crucible.runtime.template;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.filter.Filter;
import com.hubspot.jinjava.objects.collections.PyList;
import com.hubspot.jinjava.util.ForLoop;
import com.hubspot.jinjava.util.ObjectIterator;
import com.hubspot.jinjava.util.ObjectTruthValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** The jinja2 filters whose whole body is one function of the filtered value and its positional arguments. */
final class JinjaFilters {

    /**
     * jinja2's {@code items} filter: a dict as its {@code [key, value]} pairs in order, for
     * {@code {% for k, v in d | items %}}; anything else (such as an undefined value) gives no pairs. Without it
     * Jinjava renders {@code d | items} as nothing, silently.
     */
    static final Filter ITEMS = new TemplateFilter("items", JinjaFilters::items);

    /**
     * jinja2's {@code trim(chars=None)} filter, Python's {@code str.strip}: it strips every Unicode space (Jinjava's
     * own strips only ASCII controls and space) or the given characters.
     */
    static final Filter TRIM = new TemplateFilter("trim", JinjaFilters::trim);

    /**
     * {@code crucible_where('names', 'condition')}: the items for which the condition holds, with the loop variables
     * bound to each. {@link JinjaExpressions} rewrites jinja2's filtered loop
     * {@code {% for m in messages if m.role != 'x' %}} (which Jinjava would run unfiltered) into a loop over this
     * filter, so {@code loop.index} and {@code loop.length} count only the kept items, as in jinja2.
     */
    static final Filter WHERE = new TemplateFilter("crucible_where", JinjaFilters::where);

    private JinjaFilters() {
    }

    private static Object items(Object var, JinjavaInterpreter interpreter, String... args) {
        List<List<Object>> items = new ArrayList<>();
        if (var instanceof Map<?, ?> map) {
            map.forEach((k, v) -> items.add(new ArrayList<>(Arrays.asList(k, v))));
        }
        return items;
    }

    private static Object trim(Object var, JinjavaInterpreter interpreter, String... args) {
        String chars = args.length > 0 ? args[0] : null;
        return PythonStrMethods.strip(PythonValues.str(var), chars, true, true);
    }

    private static Object where(Object var, JinjavaInterpreter interpreter, String... args) {
        List<String> names = List.of(args[0].split("\\s*,\\s*"));
        List<Object> kept = new ArrayList<>();
        ForLoop items = ObjectIterator.getLoop(var);
        while (items.hasNext()) {
            Object item = items.next();
            try (var _ = interpreter.enterScope()) {
                bind(interpreter, names, item);
                if (ObjectTruthValue.evaluate(interpreter.resolveELExpression(args[1], interpreter.getLineNumber()))) {
                    kept.add(item);
                }
            }
        }
        return kept;
    }

    /** Binds one name to the item, or several to its parts ({@code for k, v in d.items() if v}). */
    private static void bind(JinjavaInterpreter interpreter, List<String> names, Object item) {
        if (names.size() == 1) {
            interpreter.getContext().put(names.getFirst(), item);
            return;
        }
        List<?> parts = switch (item) {
            case PyList list -> list.toList();
            case List<?> list -> list;
            case Map.Entry<?, ?> entry -> Arrays.asList(entry.getKey(), entry.getValue());
            case null, default -> List.of();
        };
        for (int i = 0; i < names.size(); i++) {
            interpreter.getContext().put(names.get(i), i < parts.size() ? parts.get(i) : null);
        }
    }
}

package dev.crucible.runtime.template;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.filter.Filter;
import com.hubspot.jinjava.objects.collections.PyList;
import com.hubspot.jinjava.util.ForLoop;
import com.hubspot.jinjava.util.ObjectIterator;
import com.hubspot.jinjava.util.ObjectTruthValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code crucible_where('names', 'condition')}: the items for which the condition holds, with the loop variables
 * bound to each. {@link JinjaExpressions} rewrites jinja2's filtered loop
 * {@code {% for m in messages if m.role != 'x' %}} (which Jinjava would run unfiltered) into a loop over this filter,
 * so {@code loop.index} and {@code loop.length} count only the kept items, as in jinja2. Stateless.
 */
final class LoopConditionFilter implements Filter {

    @Override
    public String getName() {
        return "crucible_where";
    }

    @Override
    public Object filter(Object var, JinjavaInterpreter interpreter, String... args) {
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
            case Map.Entry<?, ?> entry -> java.util.Arrays.asList(entry.getKey(), entry.getValue());
            case null, default -> List.of();
        };
        for (int i = 0; i < names.size(); i++) {
            interpreter.getContext().put(names.get(i), i < parts.size() ? parts.get(i) : null);
        }
    }
}

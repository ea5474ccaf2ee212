package dev.crucible.runtime.template;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.filter.Filter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * jinja2's {@code items} filter: a dict as its {@code [key, value]} pairs in order, for
 * {@code {% for k, v in d | items %}}; anything else (such as an undefined value) gives no pairs. Without it Jinjava
 * renders {@code d | items} as nothing, silently. Stateless.
 */
final class ItemsFilter implements Filter {

    @Override
    public String getName() {
        return "items";
    }

    @Override
    public Object filter(Object var, JinjavaInterpreter interpreter, String... args) {
        List<List<Object>> items = new ArrayList<>();
        if (var instanceof Map<?, ?> map) {
            map.forEach((k, v) -> items.add(new ArrayList<>(Arrays.asList(k, v))));
        }
        return items;
    }
}

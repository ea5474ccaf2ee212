package dev.crucible.runtime.template;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.exptest.ExpTest;
import java.util.Map;

/**
 * jinja2's {@code iterable} test: true for strings too, as Python can iterate over them (Jinjava says false, which
 * changes Llama 3.1's tool output from {@code "22C"} to {@code 22C}). Stateless.
 */
final class IterableCheck implements ExpTest {

    @Override
    public String getName() {
        return "iterable";
    }

    @Override
    public boolean evaluate(Object var, JinjavaInterpreter interpreter, Object... args) {
        return var instanceof CharSequence || var instanceof Iterable<?> || var instanceof Map<?, ?>
                || (var != null && var.getClass().isArray());
    }
}

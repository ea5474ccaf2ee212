package dev.crucible.runtime.template;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.filter.Filter;

/**
 * jinja2's {@code trim(chars=None)} filter, Python's {@code str.strip}: it strips every Unicode space (Jinjava's own
 * strips only ASCII controls and space) or the given characters. Stateless.
 */
final class TrimFilter implements Filter {

    @Override
    public String getName() {
        return "trim";
    }

    @Override
    public Object filter(Object var, JinjavaInterpreter interpreter, String... args) {
        String chars = args.length > 0 ? args[0] : null;
        return PythonStrMethods.strip(PythonValues.str(var), chars, true, true);
    }
}

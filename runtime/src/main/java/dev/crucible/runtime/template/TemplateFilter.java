package dev.crucible.runtime.template;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.filter.Filter;

/**
 * A filter Crucible adds to Jinjava: its name in templates and what it does with the filtered value, the interpreter
 * and the filter's positional arguments ({@link JinjaFilters} has the bodies). Stateless when its body is.
 */
record TemplateFilter(String name, Body body) implements Filter {

    /** What {@code var | name(args...)} gives. */
    @FunctionalInterface
    interface Body {
        Object apply(Object var, JinjavaInterpreter interpreter, String... args);
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public Object filter(Object var, JinjavaInterpreter interpreter, String... args) {
        return body.apply(var, interpreter, args);
    }
}

package dev.crucible.runtime.template;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.interpret.InterpreterFactory;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;

/**
 * A Jinjava interpreter that prints {@code {{ … }}} values as jinja2 does, with Python's {@code str()}
 * ({@code True}, {@code 1e-05}, {@code ['a']}) instead of Java's {@code toString()}. One per render, confined to its
 * thread, like every Jinjava interpreter.
 */
final class PythonicInterpreter extends JinjavaInterpreter {

    PythonicInterpreter(Jinjava application, Context context, JinjavaConfig config) {
        super(application, context, config);
    }

    PythonicInterpreter(JinjavaInterpreter parent) {
        super(parent);
    }

    @Override
    public String getAsString(Object object) {
        return PythonValues.str(object);
    }

    /** Makes every interpreter of a configuration, the nested ones of macros and calls included, a pythonic one. */
    static final class Factory implements InterpreterFactory {

        @Override
        public JinjavaInterpreter newInstance(JinjavaInterpreter orig) {
            return new PythonicInterpreter(orig);
        }

        @Override
        public JinjavaInterpreter newInstance(Jinjava application, Context context, JinjavaConfig config) {
            return new PythonicInterpreter(application, context, config);
        }
    }
}

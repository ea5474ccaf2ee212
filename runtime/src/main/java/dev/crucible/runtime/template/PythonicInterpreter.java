package dev.crucible.runtime.template;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.interpret.CollectionTooBigException;
import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.interpret.InterpreterFactory;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.interpret.OutputTooBigException;
import com.hubspot.jinjava.interpret.TemplateError;
import com.hubspot.jinjava.interpret.TemplateError.ErrorReason;
import java.util.Optional;

/**
 * A Jinjava interpreter that prints {@code {{ … }}} values as jinja2 does, with Python's {@code str()}
 * ({@code True}, {@code 1e-05}, {@code ['a']}) instead of Java's {@code toString()}, and that renders under a
 * {@link Budget}: where Jinjava would record an error and render on, a {@link TemplateStopped} (or any error once the
 * deadline has passed) is thrown on instead, so a stopped render unwinds at once. One per render, confined to its
 * thread, like every Jinjava interpreter; the nested ones of macros and calls share their parent's budget.
 */
final class PythonicInterpreter extends JinjavaInterpreter {

    private final Budget budget;

    PythonicInterpreter(Jinjava application, Context context, JinjavaConfig config, Budget budget) {
        super(application, context, config);
        this.budget = budget;
    }

    PythonicInterpreter(JinjavaInterpreter parent) {
        super(parent);
        this.budget = Budget.of(parent);
    }

    Budget budget() {
        return budget;
    }

    @Override
    public String getAsString(Object object) {
        return PythonValues.str(object);
    }

    @Override
    public void addError(TemplateError templateError) {
        if (templateError == null) {
            return;
        }
        Optional<TemplateStopped> stopped = Causes.first(templateError.getException(), TemplateStopped.class);
        if (stopped.isPresent()) {
            throw stopped.get();
        }
        budget.tick();
        // Jinjava's own bounds (the output and its string operators, the lists it wraps) are the budget's bounds
        if (templateError.getReason() == ErrorReason.OUTPUT_TOO_BIG
                || Causes.first(templateError.getException(), OutputTooBigException.class).isPresent()) {
            throw new TemplateStopped(budget.tooLong());
        }
        if (templateError.getReason() == ErrorReason.COLLECTION_TOO_BIG
                || Causes.first(templateError.getException(), CollectionTooBigException.class).isPresent()) {
            throw new TemplateStopped(budget.tooMany());
        }
        super.addError(templateError);
    }

    private static boolean caused(Throwable e, Class<? extends Throwable> type) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (type.isInstance(cause)) {
                return true;
            }
        }
        return false;
    }

    /** Makes every interpreter of a configuration, the nested ones of macros and calls included, a pythonic one. */
    static final class Factory implements InterpreterFactory {

        @Override
        public JinjavaInterpreter newInstance(JinjavaInterpreter orig) {
            return new PythonicInterpreter(orig);
        }

        @Override
        public JinjavaInterpreter newInstance(Jinjava application, Context context, JinjavaConfig config) {
            return new PythonicInterpreter(application, context, config, Budget.NONE);
        }
    }
}

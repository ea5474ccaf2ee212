package dev.crucible.runtime.template;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import java.time.Instant;
import java.time.LocalDateTime;

/**
 * The globals transformers adds to a chat template's environment, as static methods for Jinjava's function registry.
 * The clock is the one the rendering interpreter's configuration carries, so tests can fix it.
 */
final class TemplateFunctions {

    private TemplateFunctions() {
    }

    /** {@code raise_exception(message)}: refuses the input with the template's own message. */
    public static String raiseException(Object message) {
        throw new TemplateRaisedException(PythonValues.str(message));
    }

    /** {@code strftime_now(format)}: Python's {@code datetime.now().strftime(format)} in the configured time zone. */
    public static String strftimeNow(String format) {
        JinjavaInterpreter interpreter = JinjavaInterpreter.getCurrent();
        long millis = interpreter.getConfig().getDateTimeProvider().getCurrentTimeMillis();
        LocalDateTime now = LocalDateTime.ofInstant(Instant.ofEpochMilli(millis),
                interpreter.getConfig().getTimeZone());
        return PythonStrftime.format(now, format);
    }
}

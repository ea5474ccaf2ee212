package dev.crucible.runtime.template;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

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

    /**
     * Python's {@code range(stop)}, {@code range(start, stop)}, {@code range(start, stop, step)}, refused (before a
     * single item is made) past the render's bound on lists, as jinja2's sandbox refuses one past {@code MAX_RANGE}.
     * Jinjava's own cuts any range silently at 1,000 items.
     */
    public static List<Object> range(Object first, Object... rest) {
        long[] bounds = new long[] {0, integer(first), 1};
        if (rest.length > 0) {
            bounds[0] = bounds[1];
            bounds[1] = integer(rest[0]);
        }
        if (rest.length > 1) {
            bounds[2] = integer(rest[1]);
        }
        long start = bounds[0];
        long stop = bounds[1];
        long step = bounds[2];
        if (step == 0) {
            throw new IllegalArgumentException("range() arg 3 must not be zero");
        }
        long length = step > 0 ? (stop > start ? (stop - start - 1) / step + 1 : 0)
                : (start > stop ? (start - stop - 1) / -step + 1 : 0);
        Budget.current().items(length);
        List<Object> items = new ArrayList<>((int) length);
        for (long i = 0, value = start; i < length; i++, value += step) {
            items.add(value == (int) value ? Integer.valueOf((int) value) : Long.valueOf(value));
        }
        return items;
    }

    private static long integer(Object value) {
        return switch (value) {
            case Integer i -> i;
            case Long l -> l;
            case Number n when n.doubleValue() == Math.rint(n.doubleValue()) -> (long) n.doubleValue();
            case String s when s.strip().matches("-?\\d{1,18}") -> Long.parseLong(s.strip());
            case null, default -> throw new IllegalArgumentException("range() takes integers, got "
                    + PythonValues.repr(value));
        };
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

package dev.crucible.runtime.template;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.filter.Filter;
import dev.crucible.kernel.python.PythonJson;
import dev.crucible.kernel.python.PythonTruth;
import java.util.List;
import java.util.Map;

/**
 * transformers' {@code tojson} filter, {@code json.dumps(x, ensure_ascii=False, indent=None, separators=None,
 * sort_keys=False)}, with its keyword arguments and, as in Python, the same ones by position. Stateless.
 */
final class ToJsonFilter implements Filter {

    private static final List<String> PARAMETERS = List.of("ensure_ascii", "indent", "separators", "sort_keys");

    @Override
    public String getName() {
        return "tojson";
    }

    @Override
    public Object filter(Object var, JinjavaInterpreter interpreter, Object[] args, Map<String, Object> kwargs) {
        Object[] values = new Object[PARAMETERS.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = i < args.length ? args[i] : kwargs.get(PARAMETERS.get(i));
        }
        String indent = switch (values[1]) {
            case null -> null;
            case Boolean b -> b ? " " : "";
            case Number n -> " ".repeat(Math.max(0, n.intValue()));
            default -> values[1].toString();
        };
        String itemSeparator = null;
        String keySeparator = null;
        if (values[2] instanceof List<?> separators && separators.size() == 2) {
            itemSeparator = String.valueOf(separators.get(0));
            keySeparator = String.valueOf(separators.get(1));
        }
        return PythonJson.DEFAULT.ensureAscii(PythonTruth.of(values[0])).indent(indent)
                .separators(itemSeparator, keySeparator).sortKeys(PythonTruth.of(values[3])).lenient().dumps(var);
    }

    @Override
    public Object filter(Object var, JinjavaInterpreter interpreter, String... args) {
        return filter(var, interpreter, args, Map.of());
    }
}

package dev.crucible.runtime.template;

import com.hubspot.jinjava.el.ext.JinjavaBeanELResolver;
import com.hubspot.jinjava.lib.exptest.ExpTest;
import com.hubspot.jinjava.lib.filter.Filter;
import com.hubspot.jinjava.util.ForLoop;
import dev.crucible.kernel.refusal.Excerpt;
import dev.crucible.kernel.refusal.Refusal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jinjava.javax.el.ELContext;
import jinjava.javax.el.ELResolver;

/**
 * The last resolver of a template's expressions, where jinja2's sandbox decides what Java would otherwise: a template
 * reaches no Java object. An attribute no earlier resolver found (a dict's key, a list's index, a str's index) is
 * undefined, as an attribute a Python value lacks is to jinja2, except the attributes of {@code loop}. A call no
 * earlier resolver made is refused; the only ones let through are the engine's own: a filter applied with
 * {@code |}, a test applied with {@code is}, and {@code loop.cycle(…)}. Stateless and thread-safe.
 */
final class Sandbox extends ReadOnlyResolver {

    /** jinja2's {@code loop} attributes that Jinjava's loop has. */
    private static final Set<String> LOOP_ATTRIBUTES = Set.of("index", "index0", "revindex", "revindex0", "first",
            "last", "length", "depth", "depth0");

    private final ELResolver engine = new JinjavaBeanELResolver(true);

    @Override
    public Object getValue(ELContext context, Object base, Object property) {
        if (base == null) {
            return null;
        }
        Budget.current().tick();
        if (base instanceof ForLoop && property != null && LOOP_ATTRIBUTES.contains(property.toString())) {
            return engine.getValue(context, base, property);
        }
        context.setPropertyResolved(true);
        return null;
    }

    @Override
    public Object invoke(ELContext context, Object base, Object method, Class<?>[] types, Object[] params) {
        if (base == null || !(method instanceof String name)) {
            return null;
        }
        Budget.current().tick();
        boolean engineCall = base instanceof Filter && name.equals("filter")
                || base instanceof ExpTest && (name.equals("evaluate") || name.equals("evaluateNegated"))
                || base instanceof ForLoop && name.equals("cycle");
        if (!engineCall) {
            throw notCallable(base, name);
        }
        return engine.invoke(context, base, method, types, params);
    }

    /** The refusal of a call the sandbox does not offer, naming the method and the Python type it was called on. */
    static TemplateStopped notCallable(Object base, String method) {
        return new TemplateStopped(Refusal.invalid("chat_template", "The chat template calls " + Excerpt.of(method)
                + " on a " + pythonType(base) + ", which a chat template cannot call: a chat template may call only "
                + "the str, dict and list methods jinja2's sandbox offers, its filters and tests."));
    }

    private static String pythonType(Object value) {
        return switch (value) {
            case CharSequence s -> "str";
            case Map<?, ?> m -> "dict";
            case List<?> l -> "list";
            case Boolean b -> "bool";
            case Integer i -> "int";
            case Long l -> "int";
            case Number n -> "float";
            case ForLoop l -> "loop";
            default -> "object";
        };
    }
}

package dev.crucible.runtime.template;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jinjava.javax.el.ELContext;

/**
 * Resolves the Python {@code str}, {@code dict} and {@code list} methods chat templates call
 * ({@code s.startswith('<tool')}, {@code s.split('</think>')[-1]}, {@code d.items()}) with Python's semantics, and
 * only those: a method of a str, dict or list it does not know is refused ({@link Sandbox#notCallable}), never looked
 * up as a Java method ({@code 'ab'.repeat(3)}, {@code messages.size()}). The list methods are the ones jinja2's
 * immutable sandbox leaves callable ({@code index}, {@code count}; never {@code append} or {@code pop}). Every result
 * is checked against the render's {@link Budget}. For other bases it leaves the call unresolved, for
 * {@link Sandbox} to decide. It also indexes strings ({@code s[-1]}), which Jinjava cannot. Stateless and thread-safe.
 */
final class PythonMethodResolver extends ReadOnlyResolver {

    @Override
    public Object invoke(ELContext context, Object base, Object method, Class<?>[] types, Object[] params) {
        if (!(method instanceof String name)) {
            return null;
        }
        Object[] args = params == null ? new Object[0] : params;
        Budget budget = Budget.current();
        budget.tick();
        Object result = switch (base) {
            case String s -> new StringCall(s, args, budget).call(name);
            case Map<?, ?> map -> dictCall(map, name, args);
            case List<?> list -> listCall(list, name, args);
            case null, default -> NOT_A_PYTHON_VALUE;
        };
        if (result == NOT_A_PYTHON_VALUE) {
            return null;
        }
        if (result == NOT_MINE) {
            throw Sandbox.notCallable(base, name);
        }
        context.setPropertyResolved(true);
        return budget.checked(result);
    }

    /** jinja2's sandbox lets a template call a list's {@code index} and {@code count}, which change nothing. */
    private static Object listCall(List<?> list, String name, Object[] args) {
        if (args.length != 1) {
            return NOT_MINE;
        }
        return switch (name) {
            case "count" -> list.stream().filter(item -> PythonValues.equal(item, args[0])).count();
            case "index" -> {
                for (int i = 0; i < list.size(); i++) {
                    if (PythonValues.equal(list.get(i), args[0])) {
                        yield i;
                    }
                }
                throw new IllegalArgumentException(PythonValues.repr(args[0]) + " is not in list");
            }
            default -> NOT_MINE;
        };
    }

    private static Object dictCall(Map<?, ?> map, String name, Object[] args) {
        return switch (name) {
            case "items" -> {
                List<List<Object>> items = new ArrayList<>();
                map.forEach((k, v) -> items.add(new ArrayList<>(java.util.Arrays.asList(k, v))));
                yield items;
            }
            case "keys" -> new ArrayList<>(map.keySet());
            case "values" -> new ArrayList<>(map.values());
            case "get" -> args.length == 0 ? NOT_MINE
                    : map.containsKey(args[0]) ? map.get(args[0]) : args.length > 1 ? args[1] : null;
            default -> NOT_MINE;
        };
    }

    /** One call of a Python str method; {@link #call} answers {@link #NOT_MINE} for a name it does not know. */
    private record StringCall(String s, Object[] args, Budget budget) {

        Object call(String name) {
            return switch (name) {
                case "startswith" -> affix(true);
                case "endswith" -> affix(false);
                case "strip" -> PythonStrMethods.strip(s, text(0), true, true);
                case "lstrip" -> PythonStrMethods.strip(s, text(0), true, false);
                case "rstrip" -> PythonStrMethods.strip(s, text(0), false, true);
                case "split" -> PythonStrMethods.split(s, text(0), integer(1));
                case "splitlines" -> PythonStrMethods.splitlines(s);
                case "upper" -> s.toUpperCase(Locale.ROOT);
                case "lower" -> s.toLowerCase(Locale.ROOT);
                case "title" -> PythonStrMethods.title(s);
                case "capitalize" -> PythonStrMethods.capitalize(s);
                case "replace" -> {
                    budget.chars(PythonStrMethods.replacedLength(s, text(0), text(1), integer(2)));
                    yield PythonStrMethods.replace(s, text(0), text(1), integer(2));
                }
                case "count" -> PythonStrMethods.count(s, text(0));
                case "find" -> codePointIndex(s.indexOf(text(0)));
                case "rfind" -> codePointIndex(s.lastIndexOf(text(0)));
                case "isdigit" -> !s.isEmpty() && s.codePoints().allMatch(Character::isDigit);
                case "isalpha" -> !s.isEmpty() && s.codePoints().allMatch(Character::isLetter);
                case "isalnum" -> !s.isEmpty() && s.codePoints().allMatch(Character::isLetterOrDigit);
                case "isspace" -> !s.isEmpty() && s.codePoints().allMatch(PythonStrMethods::isSpace);
                case "isupper" -> s.codePoints().anyMatch(Character::isUpperCase)
                        && s.codePoints().noneMatch(Character::isLowerCase);
                case "islower" -> s.codePoints().anyMatch(Character::isLowerCase)
                        && s.codePoints().noneMatch(Character::isUpperCase);
                case "format" -> PythonStrMethods.format(s, args, budget::chars);
                case "join" -> args.length == 1 && args[0] instanceof Iterable<?> items ? join(items) : NOT_MINE;
                default -> NOT_MINE;
            };
        }

        private boolean affix(boolean start) {
            Object arg = args.length > 0 ? args[0] : null;
            Collection<?> options = arg instanceof Collection<?> many ? many : java.util.Collections.singletonList(arg);
            for (Object option : options) {
                String text = String.valueOf(option);
                if (start ? s.startsWith(text) : s.endsWith(text)) {
                    return true;
                }
            }
            return false;
        }

        private String join(Iterable<?> items) {
            java.util.StringJoiner out = new java.util.StringJoiner(s);
            items.forEach(item -> {
                out.add(PythonValues.str(item));
                budget.chars(out.length());
            });
            return out.toString();
        }

        private String text(int index) {
            return index < args.length && args[index] != null ? args[index].toString() : null;
        }

        private int integer(int index) {
            return index < args.length && args[index] instanceof Number n ? n.intValue() : -1;
        }

        private int codePointIndex(int charIndex) {
            return charIndex < 0 ? -1 : s.codePointCount(0, charIndex);
        }
    }

    private static final Object NOT_MINE = new Object();
    private static final Object NOT_A_PYTHON_VALUE = new Object();
    private static final java.util.regex.Pattern INDEX = java.util.regex.Pattern.compile("-?\\d{1,9}");

    /** {@code s[i]} on a string: the code point at a Python index (negative counts from the end), else undefined. */
    @Override
    public Object getValue(ELContext context, Object base, Object property) {
        // Jinjava hands the index over as text ("-1")
        if (!(base instanceof String s) || property == null || !INDEX.matcher(property.toString()).matches()) {
            return null;
        }
        context.setPropertyResolved(true);
        int length = s.codePointCount(0, s.length());
        int index = Integer.parseInt(property.toString());
        index = index < 0 ? index + length : index;
        if (index < 0 || index >= length) {
            return null;
        }
        return new String(Character.toChars(s.codePointAt(s.offsetByCodePoints(0, index))));
    }
}

package dev.crucible.runtime.structured;

import dev.crucible.kernel.refusal.Excerpt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.lucene.util.automaton.Automata;
import org.apache.lucene.util.automaton.Automaton;
import org.apache.lucene.util.automaton.Operations;

/**
 * Compiles a JSON schema into the automaton of the JSON texts that satisfy it, for the subset that regular languages
 * can express (the way outlines and xgrammar convert schemas). Supported: {@code type} (one or a list),
 * {@code properties} in schema order with {@code required}, {@code additionalProperties} (false, true or a schema;
 * when absent, an object that declares {@code properties} (even none) takes no other keys, as xgrammar's strict mode,
 * and one without takes any), {@code items}, {@code minItems}, {@code maxItems}, {@code enum}, {@code const},
 * {@code anyOf}, {@code oneOf}, a one-element {@code allOf}, local {@code $ref}s ({@code #/$defs/...},
 * {@code #/definitions/...}, nested at most {@link #MAX_REF_DEPTH} deep), string {@code minLength}, {@code maxLength},
 * {@code pattern} (the whole value matches it) and {@code format} uuid, date, time, date-time (other formats are
 * annotations), integer {@code minimum}, {@code maximum}, {@code exclusiveMinimum}, {@code exclusiveMaximum} (within
 * ±999999999). Annotations are ignored; every other validation keyword is refused by name. The expansion is bounded
 * by a {@link StateBudget}: each node's automaton is checked as it is built, and each composition that copies one
 * (an array's item stands twice, {@code maxItems} copies it that many times) is checked before it copies, so a deep
 * or multiplied schema is refused while it is still small. Not thread-safe; one compiler per schema.
 *
 * <p>Over 300 lines: one compiler with a method per schema keyword, each small; split apart they would share its state.
 */
final class JsonSchemaCompiler {

    /** How deep {@code $ref}s may nest (a recursive schema is unrolled this far, then refused). */
    static final int MAX_REF_DEPTH = 8;
    private static final long MAX_BOUND = 999_999_999L;
    private static final Set<String> REFUSED = Set.of("not", "if", "then", "else", "patternProperties",
            "propertyNames", "dependentRequired", "dependentSchemas", "dependencies", "minProperties",
            "maxProperties", "uniqueItems", "contains", "minContains", "maxContains", "prefixItems",
            "unevaluatedProperties", "unevaluatedItems", "multipleOf", "additionalItems", "$dynamicRef");
    private static final Map<String, String> FORMATS = Map.of(
            "uuid", "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
            "date", "[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])",
            "time", "([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]+)?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])?",
            "date-time", "[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5]"
                    + "[0-9](\\.[0-9]+)?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])?");

    private final Object root;
    private final JsonLanguage json;
    private final boolean forbidAdditional;
    private final StateBudget budget;
    private int refDepth;

    private JsonSchemaCompiler(Object root, JsonLanguage json, boolean forbidAdditional, StateBudget budget) {
        this.root = root;
        this.json = json;
        this.forbidAdditional = forbidAdditional;
        this.budget = budget;
    }

    /**
     * The automaton of {@code schema}.
     *
     * @param forbidAdditional objects never take keys beyond their {@code properties}
     * @throws InvalidConstraintException for an invalid or unsupported schema
     */
    static Automaton compile(Object schema, JsonLanguage json, boolean forbidAdditional, StateBudget budget) {
        return new JsonSchemaCompiler(schema, json, forbidAdditional, budget).node(schema);
    }

    private Automaton node(Object schema) {
        return budget.check(unchecked(schema));
    }

    private Automaton unchecked(Object schema) {
        if (schema instanceof Boolean b) {
            return b ? json.any(JsonLanguage.ANY_DEPTH) : Automata.makeEmpty();
        }
        if (!(schema instanceof Map<?, ?> raw)) {
            throw new InvalidConstraintException("a JSON schema must be an object or a boolean, got "
                    + Excerpt.of(JsonText.of(schema)));
        }
        Map<String, Object> s = map(raw);
        for (String key : s.keySet()) {
            if (REFUSED.contains(key)) {
                throw new InvalidConstraintException("the JSON schema keyword '" + key + "' is not supported");
            }
        }
        if (s.containsKey("$ref")) {
            return ref(s.get("$ref"));
        }
        if (s.containsKey("const")) {
            return JsonLanguage.lit(JsonText.of(s.get("const")));
        }
        if (s.containsKey("enum")) {
            List<Automaton> values = sum(list(s.get("enum"), "enum").stream()
                    .map(v -> JsonLanguage.lit(JsonText.of(v))).toList());
            return values.isEmpty() ? Automata.makeEmpty() : Operations.union(values);
        }
        for (String union : List.of("anyOf", "oneOf")) {
            if (s.containsKey(union)) {
                List<Automaton> branches = new ArrayList<>();
                for (Object branch : list(s.get(union), union)) {
                    branches.add(node(branch));
                    sum(branches);
                }
                return branches.isEmpty() ? Automata.makeEmpty() : Operations.union(branches);
            }
        }
        if (s.containsKey("allOf")) {
            List<Object> all = list(s.get("allOf"), "allOf");
            if (all.size() != 1) {
                throw new InvalidConstraintException("allOf with more than one schema is not supported");
            }
            return node(all.getFirst());
        }
        Object type = s.get("type");
        if (type instanceof List<?> types) {
            List<Automaton> branches = new ArrayList<>();
            for (Object t : types) {
                branches.add(typed(String.valueOf(t), s));
                sum(branches);
            }
            return branches.isEmpty() ? Automata.makeEmpty() : Operations.union(branches);
        }
        if (type != null && !(type instanceof String)) {
            throw new InvalidConstraintException("'type' must be a string or a list of strings, got "
                    + Excerpt.of(JsonText.of(type)));
        }
        return typed(type == null ? inferred(s) : (String) type, s);
    }

    private static String inferred(Map<String, Object> s) {
        if (s.containsKey("properties") || s.containsKey("required") || s.containsKey("additionalProperties")) {
            return "object";
        }
        if (s.containsKey("items") || s.containsKey("minItems") || s.containsKey("maxItems")) {
            return "array";
        }
        if (s.containsKey("minLength") || s.containsKey("maxLength") || s.containsKey("pattern")) {
            return "string";
        }
        return "any";
    }

    private Automaton typed(String type, Map<String, Object> s) {
        return switch (type) {
            case "object" -> object(s);
            case "array" -> array(s);
            case "string" -> string(s);
            case "integer" -> NumberRanges.integer(bound(s, "minimum", "exclusiveMinimum", true),
                    bound(s, "maximum", "exclusiveMaximum", false));
            case "number" -> {
                if (List.of("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum").stream()
                        .anyMatch(s::containsKey)) {
                    throw new InvalidConstraintException("minimum and maximum are supported only for type integer");
                }
                yield JsonLanguage.number();
            }
            case "boolean" -> Operations.union(List.of(JsonLanguage.lit("true"), JsonLanguage.lit("false")));
            case "null" -> JsonLanguage.lit("null");
            case "any" -> json.any(JsonLanguage.ANY_DEPTH);
            default -> throw new InvalidConstraintException("unknown JSON schema type " + Excerpt.of(type));
        };
    }

    private Automaton object(Map<String, Object> s) {
        Map<String, Object> properties = s.containsKey("properties") ? map(s.get("properties"), "properties")
                : new LinkedHashMap<>();
        List<String> required = list(s.getOrDefault("required", List.of()), "required").stream()
                .map(String::valueOf).toList();
        Map<String, Object> all = new LinkedHashMap<>(properties);
        required.forEach(name -> all.putIfAbsent(name, Boolean.TRUE));
        Object additional = s.get("additionalProperties");
        Optional<Automaton> extra;
        boolean declared = s.containsKey("properties") || !all.isEmpty();
        if (Boolean.FALSE.equals(additional) || forbidAdditional && declared || additional == null && declared) {
            extra = Optional.empty();
        } else {
            Automaton value = additional == null ? json.any(JsonLanguage.ANY_DEPTH - 1) : node(additional);
            extra = Optional.of(json.member(JsonLanguage.string(), value));
        }
        // after: the rest when a member has been written (each next one needs a comma); start: when none has
        Automaton after = extra.map(x -> Operations.repeat(JsonLanguage.seq(json.comma(), x)))
                .orElse(Automata.makeEmptyString());
        Automaton start = extra.map(x -> Operations.optional(JsonLanguage.seq(x, Operations.repeat(
                JsonLanguage.seq(json.comma(), x))))).orElse(Automata.makeEmptyString());
        List<String> names = new ArrayList<>(all.keySet());
        for (int i = names.size() - 1; i >= 0; i--) {
            String name = names.get(i);
            Automaton member = json.member(JsonLanguage.lit(JsonText.string(name)), node(all.get(name)));
            // the member stands in both the members after a first one and those starting the object
            budget.reserve(2L * StateBudget.size(member) + StateBudget.size(after) + StateBudget.size(start));
            Automaton withComma = JsonLanguage.seq(json.comma(), member);
            Automaton first = JsonLanguage.seq(member, after);
            if (required.contains(name)) {
                after = JsonLanguage.seq(withComma, after);
                start = first;
            } else {
                start = Operations.union(List.of(first, start));
                after = JsonLanguage.seq(Operations.optional(withComma), after);
            }
        }
        budget.reserve(StateBudget.size(start) + StateBudget.size(after));
        return json.object(start);
    }

    private Automaton array(Map<String, Object> s) {
        Object items = s.getOrDefault("items", Boolean.TRUE);
        int min = count(s, "minItems", 0);
        int max = count(s, "maxItems", -1);
        if (max >= 0 && max < min) {
            return Automata.makeEmpty();
        }
        Automaton item = Boolean.TRUE.equals(items) ? json.any(JsonLanguage.ANY_DEPTH - 1) : node(items);
        // the item stands once, then once more in the repeated rest, or maxItems times: refused before it is copied
        budget.reserveCopies(item, max < 0 ? 2 + Math.max(0, min - 1L) : Math.max(2, max));
        budget.reserveRepeat(item, Math.max(0, min - 1L), max < 0 ? -1 : Math.max(0, max - 1L));
        return json.array(item, min, max);
    }

    private Automaton string(Map<String, Object> s) {
        int min = count(s, "minLength", 0);
        int max = count(s, "maxLength", -1);
        Object format = s.get("format");
        Object pattern = s.get("pattern");
        if (pattern == null && format instanceof String f && FORMATS.containsKey(f)) {
            pattern = FORMATS.get(f);
        }
        Automaton chars = JsonLanguage.stringChar();
        if (pattern != null) {
            // the value is written without escapes, so the pattern sees exactly what the JSON string decodes to
            chars = JsonLanguage.plainChar().automaton();
        }
        budget.reserveRepeat(chars, min, max);
        Automaton body = max >= 0 ? Operations.repeat(chars, min, max)
                : min == 0 ? Operations.repeat(chars) : Operations.repeat(chars, min);
        if (pattern != null) {
            String p = String.valueOf(pattern);
            Automaton regex = RegexParser.parse(p, budget);
            // the product automaton has at most this many states; refused before it is built
            budget.reserve(Math.multiplyHigh(body.getNumStates(), regex.getNumStates()) != 0 ? Long.MAX_VALUE
                    : (long) body.getNumStates() * regex.getNumStates());
            body = Operations.intersection(body, regex);
        }
        return JsonLanguage.seq(JsonLanguage.lit("\""), body, JsonLanguage.lit("\""));
    }

    private Automaton ref(Object ref) {
        String path = String.valueOf(ref);
        if (!path.startsWith("#")) {
            throw new InvalidConstraintException("only local $ref is supported, got " + Excerpt.of(path));
        }
        Object target = root;
        for (String part : path.substring(1).split("/")) {
            if (part.isEmpty()) {
                continue;
            }
            String key = part.replace("~1", "/").replace("~0", "~");
            if (!(target instanceof Map<?, ?> m) || !m.containsKey(key)) {
                throw new InvalidConstraintException("$ref " + Excerpt.of(path) + " does not resolve");
            }
            target = m.get(key);
        }
        if (++refDepth > MAX_REF_DEPTH) {
            throw new InvalidConstraintException("$ref nests deeper than " + MAX_REF_DEPTH
                    + " levels (recursive schemas are not supported)");
        }
        try {
            return node(target);
        } finally {
            refDepth--;
        }
    }

    /** An integer bound: the inclusive keyword, or the exclusive one moved by one; empty when neither is set. */
    private static Optional<Long> bound(Map<String, Object> s, String inclusive, String exclusive, boolean lower) {
        Optional<Long> result = Optional.empty();
        if (s.get(inclusive) instanceof Number n) {
            double v = n.doubleValue();
            result = Optional.of((long) (lower ? Math.ceil(v) : Math.floor(v)));
        } else if (s.containsKey(inclusive)) {
            throw new InvalidConstraintException("'" + inclusive + "' must be a number");
        }
        if (s.get(exclusive) instanceof Number n) {
            double v = n.doubleValue();
            long e = lower ? (long) Math.floor(v) + 1 : (long) Math.ceil(v) - 1;
            result = Optional.of(result.map(r -> lower ? Math.max(r, e) : Math.min(r, e)).orElse(e));
        } else if (s.containsKey(exclusive)) {
            throw new InvalidConstraintException("'" + exclusive + "' must be a number");
        }
        result.ifPresent(v -> {
            if (Math.abs(v) > MAX_BOUND) {
                throw new InvalidConstraintException("integer bounds beyond ±" + MAX_BOUND + " are not supported");
            }
        });
        return result;
    }

    private static int count(Map<String, Object> s, String key, int absent) {
        Object value = s.get(key);
        if (value == null) {
            return absent;
        }
        if (!(value instanceof Number n) || n.doubleValue() < 0 || n.doubleValue() != Math.rint(n.doubleValue())) {
            throw new InvalidConstraintException("'" + key + "' must be a non-negative integer, got "
                    + Excerpt.of(String.valueOf(value)));
        }
        if (n.doubleValue() > RegexParser.MAX_REPEAT) {
            throw new InvalidConstraintException("'" + key + "' above " + RegexParser.MAX_REPEAT
                    + " is not supported");
        }
        return n.intValue();
    }

    /** {@code parts}, once their states together are within the budget (they are about to be joined). */
    private List<Automaton> sum(List<Automaton> parts) {
        budget.reserve(parts.stream().mapToLong(StateBudget::size).sum());
        return parts;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<?, ?> raw) {
        return (Map<String, Object>) raw;
    }

    private static Map<String, Object> map(Object value, String key) {
        if (!(value instanceof Map<?, ?> m)) {
            throw new InvalidConstraintException("'" + key + "' must be an object");
        }
        return new LinkedHashMap<>(map(m));
    }

    private static List<Object> list(Object value, String key) {
        if (!(value instanceof List<?> l)) {
            throw new InvalidConstraintException("'" + key + "' must be an array");
        }
        return new ArrayList<>(l);
    }
}

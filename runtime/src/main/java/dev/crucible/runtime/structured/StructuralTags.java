package dev.crucible.runtime.structured;

import dev.crucible.kernel.refusal.Excerpt;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.util.automaton.Automata;
import org.apache.lucene.util.automaton.Automaton;
import org.apache.lucene.util.automaton.Operations;

/**
 * Compiles vLLM's structural tag ({@code {"type": "structural_tag", "structures": [{"begin", "schema", "end"}],
 * "triggers": [...]}}, xgrammar's format) into one regular language: free text in which no trigger appears, except
 * where a structure starts; there its begin tag, JSON text valid against its schema and its end tag follow, then
 * free text again. Every begin tag must start with one of the triggers. Since each part is regular, the whole is a
 * byte automaton and is enforced like a JSON schema. Stateless.
 */
final class StructuralTags {

    private StructuralTags() {
    }

    /**
     * The language of {@code spec}, its schemas compiled with {@code json}'s whitespace.
     *
     * @throws InvalidConstraintException naming the member at fault, for a spec of the wrong shape
     */
    static Automaton compile(Object spec, JsonLanguage json, boolean forbidAdditional, StateBudget budget) {
        if (!(spec instanceof Map<?, ?> map)) {
            throw new InvalidConstraintException("the structural tag must be a JSON object");
        }
        if (map.containsKey("format")) {
            throw new InvalidConstraintException("the 'format' form of structural tags is not supported; "
                    + "use 'structures' and 'triggers'");
        }
        List<String> triggers = strings(map.get("triggers"), "triggers");
        if (triggers.isEmpty() || triggers.stream().anyMatch(String::isEmpty)) {
            throw new InvalidConstraintException("'triggers' must be a non-empty list of non-empty strings");
        }
        if (!(map.get("structures") instanceof List<?> structures) || structures.isEmpty()) {
            throw new InvalidConstraintException("'structures' must be a non-empty list");
        }
        budget.reserve(triggers.stream().mapToLong(String::length).sum());
        List<Automaton> tags = new ArrayList<>();
        long states = 0;
        for (int i = 0; i < structures.size(); i++) {
            String where = "structures[" + i + "]";
            if (!(structures.get(i) instanceof Map<?, ?> structure)) {
                throw new InvalidConstraintException(where + " must be an object");
            }
            String begin = string(structure.get("begin"), where + ".begin");
            String end = string(structure.get("end"), where + ".end");
            if (triggers.stream().noneMatch(begin::startsWith)) {
                throw new InvalidConstraintException(where + ".begin " + Excerpt.of(begin)
                        + " does not start with any of the triggers " + Excerpt.of(JsonText.of(triggers)));
            }
            if (!structure.containsKey("schema")) {
                throw new InvalidConstraintException(where + ".schema is required");
            }
            Automaton schema;
            try {
                schema = JsonSchemaCompiler.compile(structure.get("schema"), json, forbidAdditional, budget);
            } catch (InvalidConstraintException e) {
                throw new InvalidConstraintException(where + ".schema: " + e.getMessage());
            }
            states += StateBudget.size(schema) + begin.length() + end.length();
            budget.reserve(states);
            tags.add(Operations.concatenate(List.of(Automata.makeString(begin), schema, Automata.makeString(end))));
        }
        Automaton anyText = Operations.repeat(CodePointSet.ANY.automaton());
        Automaton withTrigger = Operations.concatenate(List.of(anyText,
                Operations.union(triggers.stream().map(Automata::makeString).toList()), anyText));
        Automaton free = Operations.minus(anyText, withTrigger, ByteDfa.DETERMINIZE_WORK_LIMIT);
        return Operations.concatenate(free, Operations.repeat(Operations.concatenate(Operations.union(tags), free)));
    }

    private static List<String> strings(Object value, String name) {
        if (!(value instanceof List<?> list) || list.stream().anyMatch(v -> !(v instanceof String))) {
            throw new InvalidConstraintException("'" + name + "' must be a list of strings");
        }
        return list.stream().map(String.class::cast).toList();
    }

    private static String string(Object value, String name) {
        if (!(value instanceof String s)) {
            throw new InvalidConstraintException(name + " must be a string");
        }
        return s;
    }
}

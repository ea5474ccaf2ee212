package dev.crucible.runtime.structured;

import dev.crucible.kernel.refusal.Excerpt;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.util.automaton.Automata;
import org.apache.lucene.util.automaton.Automaton;
import org.apache.lucene.util.automaton.Operations;

/**
 * A context-free grammar compiled for byte-level Earley parsing ({@link EarleyChart}): productions over
 * nonterminals and terminals, where every terminal is a regular fragment of the grammar (a literal, a class, or any
 * part that refers to no rule) compiled to a {@link ByteDfa}, so that runs of characters cost one item, not one
 * per byte. Repetitions of parts that refer to rules become left-recursive helper rules, which Earley parses in
 * constant items per byte. Every rule reachable from {@code root} must derive some finite string. Immutable and
 * thread-safe.
 */
public final class ByteGrammar implements ConstraintLanguage {

    /** Bounds what {@link EarleyChart}'s packed items can address. */
    static final int MAX_PRODUCTIONS = 0xFFFE;
    static final int MAX_PRODUCTION_LENGTH = 0xFF;
    static final int MAX_TERMINAL_STATES = 1 << 20;

    private final List<Integer> lhs = new ArrayList<>();
    private final List<int[]> rhs = new ArrayList<>();
    private final List<ByteDfa> terminals = new ArrayList<>();
    private final List<String> owners = new ArrayList<>();
    private final List<List<Integer>> productionsOf = new ArrayList<>();
    private final Map<String, Integer> ruleIds = new HashMap<>();
    private final Map<String, GrammarExpr> rules;
    private final StateBudget states;
    private final int maxSymbols;
    private final int maxParseWork;
    private long symbolCount;
    private long terminalStates;
    private int[][] byNonterminal;
    private int[] lhsById;
    private int[][] rhsById;
    private ByteDfa[] terminalById;
    private boolean[] nullable;
    private int start;

    private ByteGrammar(Map<String, GrammarExpr> rules, ConstraintBudgets budgets) {
        this.rules = rules;
        this.states = new StateBudget(budgets.maxAutomatonSize());
        this.maxSymbols = budgets.maxGrammarSymbols();
        this.maxParseWork = budgets.maxParseWork();
    }

    /**
     * Compiles the grammar {@code source} (see {@link GrammarParser} for the dialect).
     *
     * @throws InvalidConstraintException naming the rule, for a grammar that does not parse, lacks {@code root},
     *                                    refers to an undefined rule or has a rule that derives no finite string
     */
    static ByteGrammar compile(String source) {
        return compile(source, ConstraintBudgets.DEFAULTS);
    }

    /**
     * Compiles {@code source} under {@code budgets}: its regular parts within {@code maxAutomatonSize} automaton states
     * together, its productions within {@code maxGrammarSymbols} symbols, counted as they are made (repetitions
     * unrolled); its parses are then bounded by {@code maxParseWork} items a token.
     *
     * @throws InvalidConstraintException as {@link #compile(String)}, and for a grammar past a budget
     */
    static ByteGrammar compile(String source, ConstraintBudgets budgets) {
        Map<String, GrammarExpr> rules = GrammarParser.parse(source);
        if (!rules.containsKey("root")) {
            throw new InvalidConstraintException("the grammar has no rule named 'root', where output starts");
        }
        ByteGrammar g = new ByteGrammar(rules, budgets);
        rules.keySet().forEach(name -> g.nonterminal(name));
        rules.forEach((name, body) -> g.define(g.ruleIds.get(name), name, body));
        int top = g.nonterminal("<start>");
        g.start = g.production(top, new int[] {g.ruleIds.get("root")});
        g.seal();
        return g;
    }

    private int nonterminal(String owner) {
        owners.add(owner);
        productionsOf.add(new ArrayList<>());
        int id = owners.size() - 1;
        ruleIds.putIfAbsent(owner, id);
        return id;
    }

    private void define(int nt, String rule, GrammarExpr body) {
        try {
            if (!body.regular() && body instanceof GrammarExpr.Choice c) {
                c.options().forEach(option -> production(nt, symbols(rule, option)));
            } else {
                production(nt, symbols(rule, body));
            }
        } catch (InvalidConstraintException e) {
            throw e.getMessage().contains("rule '") ? e
                    : new InvalidConstraintException(e.getMessage() + " (in rule " + Excerpt.of(rule) + ")");
        }
    }

    private int production(int nt, int[] symbols) {
        if (lhs.size() >= MAX_PRODUCTIONS) {
            throw new InvalidConstraintException("the grammar is too large (over " + MAX_PRODUCTIONS
                    + " productions)");
        }
        if (symbols.length > MAX_PRODUCTION_LENGTH) {
            throw new InvalidConstraintException("a sequence has more than " + MAX_PRODUCTION_LENGTH + " parts");
        }
        symbolCount += symbols.length + 1;
        if (symbolCount > maxSymbols) {
            throw new InvalidConstraintException("the grammar compiles to more than " + maxSymbols
                    + " symbols (repetitions unrolled); the bound is " + ConstraintBudgets.MAX_GRAMMAR_SYMBOLS_SETTING);
        }
        lhs.add(nt);
        rhs.add(symbols);
        productionsOf.get(nt).add(lhs.size() - 1);
        return lhs.size() - 1;
    }

    /** The symbols of {@code expr}: one terminal per maximal regular run, nonterminals for the rest. */
    private int[] symbols(String rule, GrammarExpr expr) {
        if (expr.regular()) {
            if (expr instanceof GrammarExpr.Sequence s && s.parts().isEmpty()) {
                return new int[0];
            }
            return new int[] {terminal(automaton(expr))};
        }
        return switch (expr) {
            case GrammarExpr.Reference r -> {
                Integer id = ruleIds.get(r.rule());
                if (id == null || !rules.containsKey(r.rule())) {
                    throw new InvalidConstraintException("rule " + Excerpt.of(r.rule())
                            + " is not defined (referenced in rule " + Excerpt.of(rule) + " at line " + r.line()
                            + ", column " + r.column() + ")");
                }
                yield new int[] {id};
            }
            case GrammarExpr.Sequence s -> {
                List<Integer> out = new ArrayList<>();
                List<GrammarExpr> run = new ArrayList<>();
                for (GrammarExpr part : s.parts()) {
                    if (part.regular()) {
                        run.add(part);
                        continue;
                    }
                    flush(rule, run, out);
                    for (int sym : symbols(rule, part)) {
                        out.add(sym);
                    }
                }
                flush(rule, run, out);
                yield out.stream().mapToInt(Integer::intValue).toArray();
            }
            case GrammarExpr.Choice c -> {
                int helper = nonterminal(rule);
                c.options().forEach(option -> production(helper, symbols(rule, option)));
                yield new int[] {helper};
            }
            case GrammarExpr.Repeat r -> new int[] {repeat(rule, r)};
            case GrammarExpr.Literal l -> throw new IllegalStateException("regular");
            case GrammarExpr.CharClass k -> throw new IllegalStateException("regular");
        };
    }

    private void flush(String rule, List<GrammarExpr> run, List<Integer> out) {
        if (!run.isEmpty()) {
            for (int sym : symbols(rule, run.size() == 1 ? run.getFirst() : new GrammarExpr.Sequence(run))) {
                out.add(sym);
            }
            run.clear();
        }
    }

    /** {@code body{min,max}} as left-recursive helpers: {@code R -> e | R body} after {@code min} copies. */
    private int repeat(String rule, GrammarExpr.Repeat r) {
        int[] body = symbols(rule, r.body());
        if ((long) body.length * r.min() > MAX_PRODUCTION_LENGTH) {
            throw new InvalidConstraintException("a sequence has more than " + MAX_PRODUCTION_LENGTH + " parts");
        }
        int result = nonterminal(rule);
        int[] prefix = new int[0];
        for (int i = 0; i < r.min(); i++) {
            prefix = concat(prefix, body);
        }
        if (r.max() < 0) {
            int star = nonterminal(rule);
            production(star, new int[0]);
            production(star, concat(new int[] {star}, body));
            production(result, concat(prefix, new int[] {star}));
        } else {
            int optional = -1;
            for (int i = r.min(); i < r.max(); i++) {
                int next = nonterminal(rule);
                production(next, new int[0]);
                production(next, optional < 0 ? body : concat(body, new int[] {optional}));
                optional = next;
            }
            production(result, optional < 0 ? prefix : concat(prefix, new int[] {optional}));
        }
        return result;
    }

    private static int[] concat(int[] a, int[] b) {
        int[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private int terminal(Automaton language) {
        terminalStates += StateBudget.size(language);
        states.reserve(terminalStates);
        ByteDfa dfa = ByteDfa.of(language);
        if (dfa.size() >= MAX_TERMINAL_STATES) {
            throw new InvalidConstraintException("a regular part of the grammar is too large");
        }
        terminals.add(dfa);
        return -terminals.size();
    }

    /** The automaton of a regular part, each sub-part checked against the state budget as it is built. */
    private Automaton automaton(GrammarExpr expr) {
        return states.check(switch (expr) {
            case GrammarExpr.Literal l -> Automata.makeString(l.text());
            case GrammarExpr.CharClass k -> k.chars().automaton();
            case GrammarExpr.Sequence s -> s.parts().isEmpty() ? Automata.makeEmptyString()
                    : Operations.concatenate(checkedParts(s.parts()));
            case GrammarExpr.Choice c -> Operations.union(checkedParts(c.options()));
            case GrammarExpr.Repeat r -> {
                Automaton a = automaton(r.body());
                states.reserveRepeat(a, r.min(), r.max());
                if (r.max() < 0) {
                    yield r.min() == 0 ? Operations.repeat(a) : Operations.repeat(a, r.min());
                }
                yield Operations.repeat(a, r.min(), r.max());
            }
            case GrammarExpr.Reference r -> throw new IllegalStateException("not regular: " + r.rule());
        });
    }

    private List<Automaton> checkedParts(List<GrammarExpr> parts) {
        List<Automaton> out = new ArrayList<>();
        long total = 0;
        for (GrammarExpr part : parts) {
            out.add(automaton(part));
            total += StateBudget.size(out.getLast());
            states.reserve(total);
        }
        return out;
    }

    private void seal() {
        int n = owners.size();
        lhsById = lhs.stream().mapToInt(Integer::intValue).toArray();
        rhsById = rhs.toArray(int[][]::new);
        terminalById = terminals.toArray(ByteDfa[]::new);
        byNonterminal = new int[n][];
        for (int i = 0; i < n; i++) {
            byNonterminal[i] = productionsOf.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
        nullable = new boolean[n];
        boolean[] productive = new boolean[n];
        for (boolean changed = true; changed;) {
            changed = false;
            for (int p = 0; p < lhs.size(); p++) {
                int nt = lhs.get(p);
                boolean allProductive = true;
                boolean allNullable = true;
                for (int sym : rhs.get(p)) {
                    allProductive &= sym < 0 || productive[sym];
                    allNullable &= sym < 0 ? terminal(sym).accepts(terminal(sym).start()) : nullable[sym];
                }
                if (allProductive && !productive[nt]) {
                    productive[nt] = changed = true;
                }
                if (allNullable && !nullable[nt]) {
                    nullable[nt] = changed = true;
                }
            }
        }
        boolean[] reached = new boolean[n];
        List<Integer> work = new ArrayList<>(List.of(lhs.get(start)));
        reached[lhs.get(start)] = true;
        while (!work.isEmpty()) {
            int nt = work.removeLast();
            if (!productive[nt]) {
                throw new InvalidConstraintException("rule " + Excerpt.of(owners.get(nt))
                        + " never derives a finite string (every alternative refers to a rule that cannot end)");
            }
            for (int p : byNonterminal[nt]) {
                for (int sym : rhs.get(p)) {
                    if (sym >= 0 && !reached[sym]) {
                        reached[sym] = true;
                        work.add(sym);
                    }
                }
            }
        }
    }

    /** The production the parse starts from: {@code <start> -> root}. */
    int start() {
        return start;
    }

    int lhs(int production) {
        return lhsById[production];
    }

    /** The symbols of a production: a nonterminal id (0 or more), or {@code -(terminal index + 1)}. */
    int[] rhs(int production) {
        return rhsById[production];
    }

    /** The terminal of a negative symbol. */
    ByteDfa terminal(int symbol) {
        return terminalById[-symbol - 1];
    }

    int[] productionsOf(int nonterminal) {
        return byNonterminal[nonterminal];
    }

    boolean nullable(int nonterminal) {
        return nullable[nonterminal];
    }

    /** The most Earley items a parse may add for one token ({@link ConstraintBudgets#maxParseWork()}). */
    int maxParseWork() {
        return maxParseWork;
    }
}

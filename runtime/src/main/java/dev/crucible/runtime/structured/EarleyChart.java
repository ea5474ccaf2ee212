package dev.crucible.runtime.structured;

import java.util.Arrays;

/**
 * An Earley parse of a {@link ByteGrammar} over output bytes, one item set per byte read, that can take a byte
 * back ({@link #pop}), so a token trie can be walked depth-first against it. An item is a production, a dot, the
 * position its production started and, when a terminal follows the dot, that terminal automaton's state; items are
 * packed into a {@code long}. Nullable rules are advanced at prediction (Aycock and Horspool), so completion never
 * looks at the set being built. Because every reachable rule derives a finite string, a non-empty set means the
 * bytes read so far can still become a whole match. The work a parse does (items added, items looked at to complete
 * a rule) is counted against a budget set by {@link #budget}, checked inside the loops that spend it: an ambiguous
 * grammar's sets grow with every byte, and past the budget {@link ParseBudgetException} stops the parse where it
 * stands. Not thread-safe: one chart per sequence (or per mask walk).
 */
final class EarleyChart {

    /** The most bytes a chart reads: origins are packed into 20 bits. */
    static final int MAX_LENGTH = (1 << 20) - 2;

    private final ByteGrammar grammar;
    private long[][] sets = new long[64][];
    private int[] sizes = new int[64];
    private int length;
    // the set being built, as an open-addressing hash: a slot is taken when its stamp is the current generation
    private long[] table = new long[64];
    private int[] stamps = new int[64];
    private int generation;
    private int tableUsed;
    private long work;
    private long maxWork = Long.MAX_VALUE;

    /** A chart at the start of {@code grammar}, before any byte. */
    EarleyChart(ByteGrammar grammar) {
        this.grammar = grammar;
        begin(0);
        add(0, item(grammar.start(), 0, 0));
        close(0);
        length = 1;
    }

    /**
     * Allows {@code items} more units of work from now on (an item added or looked at), past which a push throws
     * {@link ParseBudgetException}; the chart is then in no state to be used again.
     */
    void budget(long items) {
        work = 0;
        maxWork = items;
    }

    /** The work done since the last {@link #budget}. */
    long work() {
        return work;
    }

    /** Reads {@code b}; false (and nothing read) when no parse survives it. */
    boolean push(byte b) {
        int from = length - 1;
        if (length > MAX_LENGTH) {
            return false;
        }
        int to = length;
        begin(to);
        long[] items = sets[from];
        boolean ends = false;
        for (int k = 0, n = sizes[from]; k < n; k++) {
            long it = items[k];
            int prod = prod(it);
            int dot = dot(it);
            int[] rhs = grammar.rhs(prod);
            if (dot < rhs.length && rhs[dot] < 0) {
                ByteDfa terminal = grammar.terminal(rhs[dot]);
                int next = terminal.step(state(it), b);
                if (next != ByteDfa.DEAD) {
                    add(to, pack(prod, dot, origin(it), next));
                    ends |= terminal.accepts(next);
                }
            }
        }
        if (sizes[to] == 0) {
            return false;
        }
        // a set of terminals still under way (inside a string, a number...) is closed already: only a terminal
        // that can end here leads to completions and predictions
        if (ends) {
            close(to);
        }
        length++;
        return true;
    }

    /** Reads every byte of {@code bytes}; false (and nothing read) when some byte kills every parse. */
    boolean pushAll(byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if (!push(bytes[i])) {
                for (int j = 0; j < i; j++) {
                    pop();
                }
                return false;
            }
        }
        return true;
    }

    /** Takes back the last byte read. */
    void pop() {
        if (length <= 1) {
            throw new IllegalStateException("nothing to take back");
        }
        length--;
    }

    /** Whether the bytes read so far are a whole match of the grammar. */
    boolean accepts() {
        int top = length - 1;
        long done = pack(grammar.start(), 1, 0, 0);
        long[] items = sets[top];
        for (int k = 0, n = sizes[top]; k < n; k++) {
            if (items[k] == done) {
                return true;
            }
        }
        return false;
    }

    /**
     * The terminals under way at the last byte read, with their automaton states, as sorted distinct
     * {@code terminal index << 20 | state} values: all the next byte can act on until one of them ends.
     */
    long[] scanning() {
        int top = length - 1;
        long[] out = new long[sizes[top]];
        int n = 0;
        for (int k = 0; k < sizes[top]; k++) {
            long it = sets[top][k];
            int[] rhs = grammar.rhs(prod(it));
            int dot = dot(it);
            if (dot < rhs.length && rhs[dot] < 0) {
                out[n++] = (long) (-rhs[dot] - 1) << 20 | state(it);
            }
        }
        return Arrays.stream(out, 0, n).sorted().distinct().toArray();
    }

    /** The number of bytes read. */
    int length() {
        return length - 1;
    }

    /** Predicts, advances nullables and completes until set {@code i} is closed; its array is the work list. */
    private void close(int i) {
        for (int k = 0; k < sizes[i]; k++) {
            long it = sets[i][k];
            int prod = prod(it);
            int dot = dot(it);
            int[] rhs = grammar.rhs(prod);
            if (dot == rhs.length) {
                int origin = origin(it);
                if (origin < i) {
                    complete(i, origin, grammar.lhs(prod));
                }
                continue;
            }
            int sym = rhs[dot];
            if (sym < 0) {
                if (grammar.terminal(sym).accepts(state(it))) {
                    add(i, item(prod, dot + 1, origin(it)));
                }
                continue;
            }
            for (int p : grammar.productionsOf(sym)) {
                add(i, item(p, 0, i));
            }
            if (grammar.nullable(sym)) {
                add(i, item(prod, dot + 1, origin(it)));
            }
        }
    }

    private void complete(int i, int origin, int nonterminal) {
        long[] items = sets[origin];
        spend(sizes[origin]);
        for (int k = 0, n = sizes[origin]; k < n; k++) {
            long it = items[k];
            int prod = prod(it);
            int dot = dot(it);
            int[] rhs = grammar.rhs(prod);
            if (dot < rhs.length && rhs[dot] == nonterminal) {
                add(i, item(prod, dot + 1, origin(it)));
            }
        }
    }

    /** An item with its dot before {@code dot}, in the start state of the terminal there, if any. */
    private long item(int prod, int dot, int origin) {
        int[] rhs = grammar.rhs(prod);
        int state = dot < rhs.length && rhs[dot] < 0 ? grammar.terminal(rhs[dot]).start() : 0;
        return pack(prod, dot, origin, state);
    }

    private void begin(int i) {
        if (i == sets.length) {
            sets = Arrays.copyOf(sets, i * 2);
            sizes = Arrays.copyOf(sizes, i * 2);
        }
        if (sets[i] == null) {
            sets[i] = new long[16];
        }
        sizes[i] = 0;
        generation++;
        if (generation == 0) {
            Arrays.fill(stamps, 0);
            generation = 1;
        }
        tableUsed = 0;
    }

    /** Adds {@code it} to set {@code i} (the one being built) unless it is there already. */
    private void add(int i, long it) {
        spend(1);
        if (tableUsed * 2 >= table.length) {
            rehash(i);
        }
        int mask = table.length - 1;
        int h = (int) (mix(it) & mask);
        while (stamps[h] == generation) {
            if (table[h] == it) {
                return;
            }
            h = (h + 1) & mask;
        }
        stamps[h] = generation;
        table[h] = it;
        tableUsed++;
        if (sizes[i] == sets[i].length) {
            sets[i] = Arrays.copyOf(sets[i], sizes[i] * 2);
        }
        sets[i][sizes[i]++] = it;
    }

    private void spend(int items) {
        work += items;
        if (work > maxWork) {
            throw new ParseBudgetException(maxWork);
        }
    }

    private void rehash(int i) {
        table = new long[table.length * 2];
        stamps = new int[table.length];
        int mask = table.length - 1;
        for (int k = 0; k < sizes[i]; k++) {
            int h = (int) (mix(sets[i][k]) & mask);
            while (stamps[h] == generation) {
                h = (h + 1) & mask;
            }
            stamps[h] = generation;
            table[h] = sets[i][k];
        }
    }

    private static long mix(long x) {
        long h = x * 0x9E3779B97F4A7C15L;
        return h ^ (h >>> 29);
    }

    private static long pack(int prod, int dot, int origin, int state) {
        return (long) prod << 48 | (long) dot << 40 | (long) origin << 20 | state;
    }

    private static int prod(long it) {
        return (int) (it >>> 48);
    }

    private static int dot(long it) {
        return (int) (it >>> 40) & 0xFF;
    }

    private static int origin(long it) {
        return (int) (it >>> 20) & 0xFFFFF;
    }

    private static int state(long it) {
        return (int) it & 0xFFFFF;
    }
}

package dev.crucible.runtime.structured;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.lucene.util.automaton.Automaton;
import org.apache.lucene.util.automaton.ByteRunAutomaton;
import org.apache.lucene.util.automaton.Operations;
import org.apache.lucene.util.automaton.TooComplexToDeterminizeException;

/**
 * A deterministic automaton over the UTF-8 bytes of a regular language, so tokens that end inside a multi-byte
 * character move it to an inner state instead of failing. Only live states are reachable through {@link #step}: a
 * byte that leads where no accepting state can be reached any more answers {@link #DEAD}. Immutable and
 * thread-safe.
 */
public final class ByteDfa implements ConstraintLanguage {

    /** What {@link #step} answers for a byte that leaves the language. */
    public static final int DEAD = -1;
    /**
     * Bounds the subset construction (Lucene's work units), so a pathological pattern is refused, not served. A unit
     * can cost microseconds when states have thousands of transitions (overlapping Unicode classes under stars):
     * 200,000 let {@code ((([^x]){1,84}|(.){1,123})*((\w+|\d)*){3}|[a-z])*} spend seconds before it was refused.
     * Arbitrary JSON four levels deep, the largest language the server builds itself, needs under 20,000.
     */
    static final int DETERMINIZE_WORK_LIMIT = 50_000;

    private final ByteRunAutomaton run;
    private final boolean[] live;
    private final boolean[] continues;

    private ByteDfa(ByteRunAutomaton run) {
        this.run = run;
        int size = run.getSize();
        List<List<Integer>> incoming = new ArrayList<>(size);
        for (int s = 0; s < size; s++) {
            incoming.add(new ArrayList<>());
        }
        for (int s = 0; s < size; s++) {
            for (int b = 0; b < 256; b++) {
                int t = run.step(s, b);
                if (t >= 0) {
                    incoming.get(t).add(s);
                }
            }
        }
        live = new boolean[size];
        Deque<Integer> work = new ArrayDeque<>();
        for (int s = 0; s < size; s++) {
            if (run.isAccept(s)) {
                live[s] = true;
                work.add(s);
            }
        }
        while (!work.isEmpty()) {
            for (int from : incoming.get(work.poll())) {
                if (!live[from]) {
                    live[from] = true;
                    work.add(from);
                }
            }
        }
        continues = new boolean[size];
        for (int s = 0; s < size; s++) {
            for (int b = 0; b < 256 && !continues[s]; b++) {
                int t = run.step(s, b);
                continues[s] = t >= 0 && live[t];
            }
        }
    }

    /**
     * The byte automaton of a language over code points.
     *
     * @throws InvalidConstraintException when the language is empty or too complex to determinize
     */
    static ByteDfa of(Automaton codePoints) {
        ByteDfa dfa;
        try {
            Automaton det = Operations.determinize(Operations.removeDeadStates(codePoints), DETERMINIZE_WORK_LIMIT);
            dfa = new ByteDfa(new ByteRunAutomaton(det));
        } catch (TooComplexToDeterminizeException e) {
            throw new InvalidConstraintException("the constraint is too complex to compile into an automaton");
        }
        if (!dfa.live[dfa.start()]) {
            throw new InvalidConstraintException("the constraint matches no output at all");
        }
        return dfa;
    }

    /** The state before any byte. */
    public int start() {
        return 0;
    }

    /** The state after {@code b} (0..255) from a live {@code state}, or {@link #DEAD}. */
    public int step(int state, int b) {
        int next = run.step(state, b & 0xFF);
        return next >= 0 && live[next] ? next : DEAD;
    }

    /** The state after all of {@code bytes}, or {@link #DEAD}. */
    public int step(int state, byte[] bytes) {
        int s = state;
        for (int i = 0; i < bytes.length && s != DEAD; i++) {
            s = step(s, bytes[i]);
        }
        return s;
    }

    /** Whether the bytes read so far form a whole match. */
    public boolean accepts(int state) {
        return run.isAccept(state);
    }

    /** Whether some byte may still follow. */
    public boolean canContinue(int state) {
        return continues[state];
    }

    /** The number of states. */
    public int size() {
        return run.getSize();
    }

    /** Whether {@code bytes} is a whole match. */
    public boolean matches(byte[] bytes) {
        int s = step(start(), bytes);
        return s != DEAD && accepts(s);
    }
}

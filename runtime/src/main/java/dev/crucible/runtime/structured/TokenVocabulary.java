package dev.crucible.runtime.structured;

import dev.crucible.hf.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * A tokenizer's vocabulary as a byte trie, for finding in one walk every token that keeps an automaton alive.
 * Special tokens are left out (they are control markers, not text: {@code skip_special_tokens} would drop them from
 * the output), as are empty ones. Immutable after construction; thread-safe.
 */
public final class TokenVocabulary {

    private final int size;
    private final byte[][] bytes;
    // trie as arrays: first child, next sibling, edge byte; tokens ending at a node as a chain
    private int[] firstChild;
    private int[] nextSibling;
    private byte[] label;
    private int[] firstToken;
    private int[] parent;
    private int maxDepth;
    private final int[] nextToken;
    private int nodes = 1;

    /** Reads every token's bytes from {@code tokenizer} (which may be closed afterwards). */
    public TokenVocabulary(Tokenizer tokenizer) {
        this.size = tokenizer.vocabSize();
        this.bytes = new byte[size][];
        this.nextToken = new int[size];
        int capacity = 1024;
        firstChild = filled(capacity);
        parent = filled(capacity);
        nextSibling = filled(capacity);
        label = new byte[capacity];
        firstToken = filled(capacity);
        for (int id = 0; id < size; id++) {
            bytes[id] = tokenizer.isSpecial(id) ? new byte[0] : tokenizer.tokenBytes(id);
            maxDepth = Math.max(maxDepth, bytes[id].length);
            if (bytes[id].length > 0) {
                int node = insert(bytes[id]);
                nextToken[id] = firstToken[node];
                firstToken[node] = id;
            }
        }
    }

    /** The number of token ids (the tokenizer's vocabulary plus added tokens). */
    public int size() {
        return size;
    }

    /** The bytes of token {@code id}; empty for special tokens. */
    byte[] bytes(int id) {
        return bytes[id];
    }

    /** Every token whose bytes take {@code dfa} from {@code state} to a live state. */
    BitSet allowed(ByteDfa dfa, int state) {
        BitSet out = new BitSet(size);
        walk(dfa, 0, state, out);
        return out;
    }

    /**
     * The part of a grammar mask that depends only on the terminals under way ({@code dfas} in {@code states}):
     * every token whose bytes keep some of them alive without any reaching an accepting state, plus the tokens
     * ending where one first does; those nodes (boundaries) are listed, since what may follow them depends on the
     * whole parse.
     */
    ScanMask scanMask(ByteDfa[] dfas, int[] states) {
        int k = dfas.length;
        int[] stack = new int[(maxDepth + 1) * k];
        System.arraycopy(states, 0, stack, 0, k);
        BitSet out = new BitSet(size);
        List<Integer> boundaries = new ArrayList<>();
        scanWalk(dfas, stack, 0, 0, out, boundaries);
        return new ScanMask(out, boundaries.stream().mapToInt(Integer::intValue).toArray());
    }

    private void scanWalk(ByteDfa[] dfas, int[] stack, int depth, int node, BitSet out, List<Integer> boundaries) {
        int k = dfas.length;
        int from = depth * k;
        int to = from + k;
        for (int child = firstChild[node]; child >= 0; child = nextSibling[child]) {
            boolean alive = false;
            boolean ends = false;
            for (int j = 0; j < k; j++) {
                int s = stack[from + j];
                int n = s == ByteDfa.DEAD ? ByteDfa.DEAD : dfas[j].step(s, label[child]);
                stack[to + j] = n;
                if (n != ByteDfa.DEAD) {
                    alive = true;
                    ends |= dfas[j].accepts(n);
                }
            }
            if (!alive) {
                continue;
            }
            for (int id = firstToken[child]; id >= 0; id = nextToken[id]) {
                out.set(id);
            }
            if (ends) {
                boundaries.add(child);
            } else {
                scanWalk(dfas, stack, depth + 1, child, out, boundaries);
            }
        }
    }

    /**
     * Completes a {@link ScanMask} for {@code chart}: below each boundary, the tokens that keep some parse alive.
     * The chart is left as it was.
     */
    BitSet complete(ScanMask scan, EarleyChart chart) {
        BitSet out = (BitSet) scan.allowed().clone();
        byte[] path = new byte[maxDepth];
        for (int node : scan.boundaries()) {
            int length = 0;
            for (int n = node; n > 0; n = parent[n]) {
                path[length++] = label[n];
            }
            int pushed = 0;
            while (pushed < length && chart.push(path[length - 1 - pushed])) {
                pushed++;
            }
            if (pushed == length) {
                walk(chart, node, out);
            }
            for (int i = 0; i < pushed; i++) {
                chart.pop();
            }
        }
        return out;
    }

    private void walk(EarleyChart chart, int node, BitSet out) {
        for (int child = firstChild[node]; child >= 0; child = nextSibling[child]) {
            if (chart.push(label[child])) {
                for (int id = firstToken[child]; id >= 0; id = nextToken[id]) {
                    out.set(id);
                }
                walk(chart, child, out);
                chart.pop();
            }
        }
    }

    private void walk(ByteDfa dfa, int node, int state, BitSet out) {
        for (int child = firstChild[node]; child >= 0; child = nextSibling[child]) {
            int next = dfa.step(state, label[child]);
            if (next != ByteDfa.DEAD) {
                for (int id = firstToken[child]; id >= 0; id = nextToken[id]) {
                    out.set(id);
                }
                walk(dfa, child, next, out);
            }
        }
    }

    private int insert(byte[] token) {
        int node = 0;
        for (byte b : token) {
            int child = firstChild[node];
            while (child >= 0 && label[child] != b) {
                child = nextSibling[child];
            }
            if (child < 0) {
                child = newNode(b);
                parent[child] = node;
                nextSibling[child] = firstChild[node];
                firstChild[node] = child;
            }
            node = child;
        }
        return node;
    }

    private int newNode(byte b) {
        if (nodes == firstChild.length) {
            int capacity = nodes * 2;
            firstChild = grown(firstChild, capacity);
            nextSibling = grown(nextSibling, capacity);
            firstToken = grown(firstToken, capacity);
            parent = grown(parent, capacity);
            label = Arrays.copyOf(label, capacity);
        }
        label[nodes] = b;
        return nodes++;
    }

    private static int[] filled(int capacity) {
        int[] a = new int[capacity];
        Arrays.fill(a, -1);
        return a;
    }

    private static int[] grown(int[] a, int capacity) {
        int[] b = Arrays.copyOf(a, capacity);
        Arrays.fill(b, a.length, capacity, -1);
        return b;
    }
}

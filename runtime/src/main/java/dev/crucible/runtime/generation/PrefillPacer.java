package dev.crucible.runtime.generation;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Locale;

/**
 * The scheduler's running account of a {@link PrefillBudget}: how many prompt tokens the next step may forward while
 * sequences decode. Paced, it keeps the time of a forward that only decodes (the lower quartile of the last
 * {@value #WINDOW} of them with as many sequences, so slow steps, such as a batch's first, or those while a long
 * prompt is received and tokenized beside them, do not set the allowance for the whole prefill that follows: on a
 * virtual machine a quarter of the steps or more can take 1.5 to 2 times the others) and a cost model of what a
 * prompt piece adds to a step, fitted online to the timed steps that also prefilled: a piece of {@code k} tokens
 * starting at position {@code p} (the tokens its sequence's cache holds already) adds
 * {@code fixed + k * perToken + k * m * perTokenPosition}, {@code m = p + (k - 1) / 2} the piece's mean position.
 * The fixed part is what any piece costs: little where the engine runs the piece in the decoding rows' own run (the
 * ONNX engine), a read of every weight where it runs the piece apart; the last grows with the position, since each
 * new token attends to the prefix already cached. The budget is then the largest piece whose predicted extra time
 * fits {@code (stallFactor - 1)} decode steps, with a margin of {@value #MARGIN}, so a step is within the factor by
 * construction whenever the model holds, and stays within it when a step takes about a decode step longer than
 * predicted, as single steps on a virtual machine do (docs/decisions.md), or when the machine slows down to
 * {@code 1 / MARGIN} times the fit before the fit has caught up.
 *
 * <p>The fit is least squares over every mixed step timed, each older one weighing {@value #FORGET} of the one after
 * it (the machine's load changes), with no coefficient below 0 (the best fit over the subsets of the three terms). A
 * step that took more than {@value #SPIKE} times the fit's prediction for its piece is learned as that much: on a
 * virtual machine every third or fourth step can take one more decode step's time whatever its piece, and learned
 * whole, those steps would shrink every piece after them (least squares weighs them by their square); a machine that
 * really slows down raises the fit by up to that factor a step. Pieces of one size cannot tell the fixed part from the
 * per-token one (a long prompt's steady pieces are all about one size), so a piece larger than the last is predicted
 * at no less than the last one's time, as measured, in proportion to its tokens, plus the position part's growth: an
 * upper bound whatever the split. Only the second piece ever goes by the fit alone, which reads the first (one token)
 * as all fixed cost: it may then cost one token's own cost more than predicted, which the margin covers while a token
 * costs at most {@code 1 / MARGIN - 1} of the allowance.
 *
 * <p>Nothing is guessed: before a mixed step has been timed the budget is {@value #FIRST_TOKENS} token (a step then
 * costs a decode step plus the prefill run's fixed cost, the least any prefill costs), and a budget is at most twice
 * the prompt tokens of the last timed mixed step, so a model fitted on a different prompt (shorter positions, a
 * larger batch) or a stale one is tried in doublings rather than trusted for a whole chunk. One token always goes,
 * even when the fixed cost alone passes the allowance, so a prompt never starves; the step is then the least a
 * prefill can cost. Used on the scheduler's thread only; the times are passed in, so the arithmetic is tested with
 * made-up ones.
 */
final class PrefillPacer {

    /** How many of the latest decode-only steps the decode time is the lower quartile of. */
    static final int WINDOW = 25;
    /** The share of the allowed extra time the budget aims at. */
    static final double MARGIN = 0.4;
    /** The budget before a mixed step has been timed. */
    static final int FIRST_TOKENS = 1;
    /** The most a mixed step teaches the fit, as a multiple of the extra time the fit predicted for its piece. */
    static final double SPIKE = 1.25;
    /** How much each older mixed step weighs against the one after it in the fit. */
    static final double FORGET = 0.9;

    private final PrefillBudget budget;
    private final int chunk;
    private double decodeNanos = Double.NaN;
    /** How many sequences the decode-only steps of {@link #decodeNanos} forwarded. */
    private int decodeSequences;
    /** The latest decode-only steps' times with {@link #decodeSequences} sequences, oldest first. */
    private final ArrayDeque<Long> decodeTimes = new ArrayDeque<>();
    private final PieceCost cost = new PieceCost();
    /** The last timed mixed step: its piece's tokens (0 before one), position and extra time. */
    private int lastTokens;
    /** How many mixed steps have been timed. */
    private int mixedSteps;
    private int lastPosition;
    private double lastExtra;

    /** @param chunk the most prompt tokens of one sequence in a step, which also caps the budget */
    PrefillPacer(PrefillBudget budget, int chunk) {
        this.budget = budget;
        this.chunk = chunk;
    }

    /**
     * Whether a step may forward prompt pieces of several sequences beside the decoding ones. Paced, no: each piece
     * is a prefill run of its own with its own fixed cost, which the budget of one piece does not count.
     */
    boolean severalPieces() {
        return !budget.isPaced();
    }

    /**
     * The prompt tokens the next step may forward while {@code decoding} sequences decode; paced, the tokens of the
     * one piece that starts at {@code position} in its sequence. Paced, 0 (the prompts sit the step out, so it only
     * decodes) while no decode-only step of at least as few sequences has been timed: the allowance is measured in
     * the decode steps the running streams take now, and one timed with more sequences would overstate it.
     */
    int tokens(int decoding, int position) {
        if (!budget.isPaced()) {
            return budget.stepTokens();
        }
        if (Double.isNaN(decodeNanos) || decoding < decodeSequences) {
            return 0;
        }
        if (lastTokens == 0) {
            return Math.min(chunk, FIRST_TOKENS);
        }
        double allowed = allowedNanos();
        int most = Math.min(chunk, 2 * lastTokens);
        // the largest piece whose predicted extra time fits; the prediction grows with the piece, so halve the range
        int low = 1;
        int high = most;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (predictedNanos(mid, position) <= allowed) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        return low;
    }

    /** The extra time a step may take over a decode-only one, in nanoseconds: the margin of the factor's allowance. */
    double allowedNanos() {
        return (budget.stallFactor() - 1) * decodeNanos * MARGIN;
    }

    /**
     * The extra time the model predicts for a piece of {@code tokens} tokens starting at {@code position}; NaN before
     * a mixed step is timed.
     */
    double predictedNanos(int tokens, int position) {
        if (lastTokens == 0) {
            return Double.NaN;
        }
        double predicted = cost.predict(tokens, position);
        if (tokens <= lastTokens || mixedSteps < 2) {
            return predicted;
        }
        // larger than the last piece: at least that piece's time in proportion, as if it had no fixed part, plus
        // the position part's growth, an upper bound whatever split of fixed and per-token cost the fit has made
        double positionGrowth = cost.coefficients[2] * tokens * Math.max(0,
                PieceCost.meanPosition(tokens, position) - PieceCost.meanPosition(lastTokens, lastPosition));
        return Math.max(predicted, lastExtra * tokens / lastTokens + positionGrowth);
    }

    /** The time of a decode-only step the pacer goes by, in nanoseconds; NaN before one is timed. */
    double decodeNanos() {
        return decodeNanos;
    }

    /**
     * Records a timed forward of {@code decoding} one-token sequences and {@code prompt} prompt tokens in one piece
     * starting at {@code position}, which took {@code nanos}. Only forwards with decoding sequences teach the pacer:
     * a prefill alone is not what it paces.
     */
    void forwarded(int decoding, int prompt, int position, long nanos) {
        if (!budget.isPaced() || decoding == 0) {
            return;
        }
        if (prompt == 0) {
            if (decoding != decodeSequences) {
                decodeTimes.clear();
                decodeSequences = decoding;
            }
            decodeTimes.addLast(nanos);
            if (decodeTimes.size() > WINDOW) {
                decodeTimes.removeFirst();
            }
            decodeNanos = lowerQuartile(decodeTimes);
        } else if (!Double.isNaN(decodeNanos)) {
            lastExtra = Math.max(0, nanos - decodeNanos);
            double learned = lastExtra;
            if (mixedSteps >= 2) {
                // a slow step is mostly the machine's, not the piece's: it teaches the fit at most SPIKE times
                // what the fit said, so a slower machine still raises the fit within a few steps
                double predicted = cost.predict(prompt, position);
                learned = predicted > 0 ? Math.min(learned, SPIKE * predicted) : learned;
            }
            lastTokens = prompt;
            lastPosition = position;
            mixedSteps++;
            cost.add(prompt, position, learned);
        }
    }

    /** The pacer's figures, for the scheduler's step trace. */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "decode %.1f ms x %d, allowed %.1f ms, piece cost %s", decodeNanos / 1e6,
                decodeSequences, allowedNanos() / 1e6, cost);
    }

    /** The lower quartile of {@code times}: the {@code n / 4}-th smallest, counting from 0. */
    private static double lowerQuartile(Collection<Long> times) {
        long[] sorted = times.stream().mapToLong(Long::longValue).sorted().toArray();
        return sorted[sorted.length / 4];
    }

    /**
     * The cost model of a prompt piece, {@code fixed + k * perToken + k * m * perTokenPosition}, fitted by weighted
     * least squares with no negative coefficient. Keeps the weighted sums of the three terms' products ({@link #xx},
     * {@link #xy}, {@link #yy}), each decayed by {@link #FORGET} when a new piece is added, and refits then: among the
     * subsets of the terms, the fit with every coefficient at least 0 that leaves the least weighted square error,
     * ties going as {@link #SUBSETS} says. The terms are scaled to unit weighted size before they are solved for,
     * with a tiny ridge, so a set the pieces so far cannot tell apart still gets a fit.
     */
    static final class PieceCost {

        private static final int TERMS = 3;
        private static final double RIDGE = 1e-9;
        /**
         * The subsets of the terms (bit 0 fixed, 1 per token, 2 per token and position) in the order they are tried;
         * a later one wins only by fitting better by more than {@link #TIE} of the square sum. Fewer terms first, the
         * fixed part first among as many: pieces of one size cannot tell the fixed part from the per-token one, and
         * read as fixed they let the next piece double, which costs at most one token's own cost more than predicted
         * (within the margin) and tells the two apart; read as per-token, a one-token piece taking more than half the
         * allowance would stay one token for ever.
         */
        private static final int[] SUBSETS = {0b001, 0b010, 0b100, 0b011, 0b101, 0b110, 0b111};
        private static final double TIE = 1e-9;
        private final double[][] xx = new double[TERMS][TERMS];
        private final double[] xy = new double[TERMS];
        private double yy;
        private final double[] coefficients = new double[TERMS];

        /** The three terms of a piece of {@code tokens} tokens starting at {@code position}. */
        static double[] terms(int tokens, int position) {
            return new double[] {1, tokens, tokens * meanPosition(tokens, position)};
        }

        /** The mean position of a piece's tokens. */
        static double meanPosition(int tokens, int position) {
            return position + (tokens - 1) / 2.0;
        }

        void add(int tokens, int position, double extra) {
            double[] x = terms(tokens, position);
            for (int i = 0; i < TERMS; i++) {
                for (int j = 0; j < TERMS; j++) {
                    xx[i][j] = FORGET * xx[i][j] + x[i] * x[j];
                }
                xy[i] = FORGET * xy[i] + x[i] * extra;
            }
            yy = FORGET * yy + extra * extra;
            fit();
        }

        double predict(int tokens, int position) {
            double[] x = terms(tokens, position);
            double sum = 0;
            for (int i = 0; i < TERMS; i++) {
                sum += coefficients[i] * x[i];
            }
            return sum;
        }

        /** The fixed, per-token and per-token-per-position coefficients, in nanoseconds. */
        double[] coefficients() {
            return coefficients.clone();
        }

        private void fit() {
            double bestError = Double.POSITIVE_INFINITY;
            double[] best = new double[TERMS];
            double tolerance = TIE * yy;
            for (int subset : SUBSETS) {
                double[] b = solve(subset);
                if (b != null) {
                    double error = error(b);
                    if (error < bestError - tolerance) {
                        bestError = error;
                        best = b;
                    }
                }
            }
            System.arraycopy(best, 0, coefficients, 0, TERMS);
        }

        /** The least-squares coefficients of the terms in {@code subset} (the others 0), or null if one is negative. */
        private double[] solve(int subset) {
            int[] index = new int[Integer.bitCount(subset)];
            for (int i = 0, n = 0; i < TERMS; i++) {
                if ((subset & (1 << i)) != 0) {
                    index[n++] = i;
                }
            }
            int n = index.length;
            double[] scale = new double[n];
            for (int i = 0; i < n; i++) {
                double d = xx[index[i]][index[i]];
                if (d <= 0) {
                    return null;
                }
                scale[i] = Math.sqrt(d);
            }
            double[][] a = new double[n][n + 1];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    a[i][j] = xx[index[i]][index[j]] / (scale[i] * scale[j]) + (i == j ? RIDGE : 0);
                }
                a[i][n] = xy[index[i]] / scale[i];
            }
            double[] z = gauss(a);
            double[] b = new double[TERMS];
            for (int i = 0; i < n; i++) {
                double coefficient = z[i] / scale[i];
                if (!(coefficient >= 0) || !Double.isFinite(coefficient)) {
                    return null;
                }
                b[index[i]] = coefficient;
            }
            return b;
        }

        /** The weighted square error of coefficients {@code b}: yy - 2 b.xy + b.xx.b. */
        private double error(double[] b) {
            double error = yy;
            for (int i = 0; i < TERMS; i++) {
                error -= 2 * b[i] * xy[i];
                for (int j = 0; j < TERMS; j++) {
                    error += b[i] * xx[i][j] * b[j];
                }
            }
            return error;
        }

        /** Solves the augmented system {@code a} (n rows, n + 1 columns) by elimination with partial pivoting. */
        private static double[] gauss(double[][] a) {
            int n = a.length;
            for (int col = 0; col < n; col++) {
                int pivot = col;
                for (int row = col + 1; row < n; row++) {
                    if (Math.abs(a[row][col]) > Math.abs(a[pivot][col])) {
                        pivot = row;
                    }
                }
                double[] swap = a[col];
                a[col] = a[pivot];
                a[pivot] = swap;
                for (int row = col + 1; row < n; row++) {
                    double f = a[row][col] / a[col][col];
                    for (int k = col; k <= n; k++) {
                        a[row][k] -= f * a[col][k];
                    }
                }
            }
            double[] z = new double[n];
            for (int row = n - 1; row >= 0; row--) {
                double sum = a[row][n];
                for (int k = row + 1; k < n; k++) {
                    sum -= a[row][k] * z[k];
                }
                z[row] = sum / a[row][row];
            }
            return z;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.1f ms + %.3f ms/token + %.3g ms/token/position", coefficients[0] / 1e6,
                    coefficients[1] / 1e6, coefficients[2] / 1e6);
        }
    }
}

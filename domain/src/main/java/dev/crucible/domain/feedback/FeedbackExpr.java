package dev.crucible.domain.feedback;

import java.util.List;
import java.util.Objects;

/**
 * A feedback query expression: Weave's Mongo-like query language as a tree, for the persistence adapter to
 * translate. Operators ({@link And}, {@link Or}, {@link Not}, {@link Compare}, {@link In}, {@link Contains}) may
 * also be operands; {@link Literal}, {@link GetField} and {@link Convert} are operands only.
 */
public sealed interface FeedbackExpr {

    /** {@code $eq}, {@code $gt}, {@code $gte}, {@code $lt}, {@code $lte}. */
    enum Comparison { EQ, GT, GTE, LT, LTE }

    /** The {@code to} of {@code $convert}: {@code exists} is true when the value is present and not null. */
    enum ConvertTo { DOUBLE, STRING, INT, BOOL, EXISTS }

    /** {@code $literal}: a string, a number ({@link Long} or {@link Double}), a boolean, or null. */
    record Literal(Object value) implements FeedbackExpr {
        public Literal {
            if (value != null && !(value instanceof String || value instanceof Long || value instanceof Double
                    || value instanceof Boolean)) {
                throw new IllegalArgumentException("a literal is a string, Long, Double, boolean or null");
            }
        }
    }

    /** {@code $getField}. */
    record GetField(FeedbackField field) implements FeedbackExpr {
        public GetField {
            Objects.requireNonNull(field, "field");
        }
    }

    /** {@code $convert}. */
    record Convert(FeedbackExpr input, ConvertTo to) implements FeedbackExpr {
        public Convert {
            Objects.requireNonNull(input, "input");
            Objects.requireNonNull(to, "to");
        }
    }

    /** {@code $and}; never empty. */
    record And(List<FeedbackExpr> operands) implements FeedbackExpr {
        public And {
            operands = nonEmpty(operands, "$and");
        }
    }

    /** {@code $or}; never empty. */
    record Or(List<FeedbackExpr> operands) implements FeedbackExpr {
        public Or {
            operands = nonEmpty(operands, "$or");
        }
    }

    /** {@code $not}. */
    record Not(FeedbackExpr operand) implements FeedbackExpr {
        public Not {
            Objects.requireNonNull(operand, "operand");
        }
    }

    /** A binary comparison. */
    record Compare(Comparison op, FeedbackExpr left, FeedbackExpr right) implements FeedbackExpr {
        public Compare {
            Objects.requireNonNull(op, "op");
            Objects.requireNonNull(left, "left");
            Objects.requireNonNull(right, "right");
        }
    }

    /** {@code $in}: whether {@code needle} equals one of {@code candidates}; an empty list matches nothing. */
    record In(FeedbackExpr needle, List<FeedbackExpr> candidates) implements FeedbackExpr {
        public In {
            Objects.requireNonNull(needle, "needle");
            candidates = List.copyOf(candidates);
        }
    }

    /** {@code $contains}: whether the string {@code input} contains {@code substr}. */
    record Contains(FeedbackExpr input, FeedbackExpr substr, boolean caseInsensitive) implements FeedbackExpr {
        public Contains {
            Objects.requireNonNull(input, "input");
            Objects.requireNonNull(substr, "substr");
        }
    }

    private static List<FeedbackExpr> nonEmpty(List<FeedbackExpr> operands, String operator) {
        List<FeedbackExpr> copy = List.copyOf(operands);
        if (copy.isEmpty()) {
            throw new IllegalArgumentException(operator + " requires at least one operand");
        }
        return copy;
    }
}

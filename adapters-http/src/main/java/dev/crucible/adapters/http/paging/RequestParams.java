package dev.crucible.adapters.http.paging;

import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.paging.SortOrder;
import java.util.Optional;
import java.util.UUID;

/** Path and query parameters, checked: a malformed id or number is a 400 naming the parameter. */
public final class RequestParams {

    private RequestParams() {
    }

    public static UUID uuid(String param, String value) {
        try {
            UUID parsed = UUID.fromString(value);
            if (parsed.toString().equalsIgnoreCase(value)) {
                return parsed;
            }
        } catch (IllegalArgumentException e) {
            // fall through to the refusal below
        }
        throw RefusalException.invalid(param, param + " must be a UUID, got '" + abbreviate(value) + "'");
    }

    /** A checkpoint step in a path: 0 to 999,999,999, written as plain digits. */
    public static int step(String value) {
        if (value == null || !value.matches("[0-9]{1,9}")) {
            throw RefusalException.invalid("step", "step must be a checkpoint step (an integer >= 0), got '"
                    + abbreviate(String.valueOf(value)) + "'");
        }
        return Integer.parseInt(value);
    }

    /** The page request of {@code after}, {@code limit} (default 20) and {@code order} (default asc). */
    public static PageRequest page(String after, String limit, String order) {
        Optional<UUID> cursor = after == null || after.isEmpty() ? Optional.empty() : Optional.of(uuid("after", after));
        return RefusalException.unwrap(PageRequest.of(cursor, limit(limit), order(order)));
    }

    /** {@code limit} as sent, {@value PageRequest#DEFAULT_LIMIT} when absent; not an integer is a 400 naming it. */
    public static int limit(String limit) {
        if (limit == null) {
            return PageRequest.DEFAULT_LIMIT;
        }
        try {
            return Integer.parseInt(limit.strip());
        } catch (NumberFormatException e) {
            throw RefusalException.invalid("limit", "limit must be an integer between 1 and 100, got '"
                    + abbreviate(limit) + "'");
        }
    }

    /** {@code order} as sent, ascending when absent; anything but {@code asc} or {@code desc} is a 400 naming it. */
    public static SortOrder order(String order) {
        return order == null ? SortOrder.ASC : SortOrder.parse(order).orElseThrow(() ->
                RefusalException.invalid("order", "order must be 'asc' or 'desc', got '" + abbreviate(order) + "'"));
    }

    private static String abbreviate(String value) {
        return value.length() > 64 ? value.substring(0, 64) + "…" : value;
    }
}

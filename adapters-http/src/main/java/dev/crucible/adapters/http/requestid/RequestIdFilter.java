package dev.crucible.adapters.http.requestid;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Gives every request an id: the caller's {@code X-Request-Id} when it is a sane token, else a new UUID. The id
 * is echoed in the response's {@code X-Request-Id} header and written with every error that is logged.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
public final class RequestIdFilter {

    public static final String HEADER = "X-Request-Id";
    private static final String ATTRIBUTE = RequestIdFilter.class.getName();
    private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    /** The id of {@code request}, assigning one when the filter has not run (for example on early errors). */
    public static String of(HttpRequest<?> request) {
        return request.getAttribute(ATTRIBUTE, String.class).orElseGet(() -> assign(request));
    }

    @RequestFilter
    void onRequest(HttpRequest<?> request) {
        assign(request);
    }

    @ResponseFilter
    void onResponse(HttpRequest<?> request, MutableHttpResponse<?> response) {
        response.header(HEADER, of(request));
    }

    private static String assign(HttpRequest<?> request) {
        String given = request.getHeaders().get(HEADER);
        String id = given != null && SANE.matcher(given).matches() ? given : UUID.randomUUID().toString();
        request.setAttribute(ATTRIBUTE, id);
        return id;
    }
}

package dev.crucible.server.client;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** URL path pieces made from user input. */
final class Paths {

    private Paths() {
    }

    /** One path segment: percent-encoded, so a slash, {@code .} or {@code ..} in an id stays inside the segment. */
    static String segment(String value) {
        String encoded = URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
        return encoded.equals(".") || encoded.equals("..") ? encoded.replace(".", "%2E") : encoded;
    }
}

package dev.crucible.application.job;

import java.net.URI;

/**
 * Downloads training data over {@code http(s)}, with the connect and read time limits of the implementation.
 *
 * <p>Thread-safe; blocks the calling thread until the download ends or times out.
 */
public interface TrainingDataDownloads {

    /** How a download ended. */
    sealed interface Download {
    }

    /** The whole body of a 2xx response. */
    record Body(byte[] bytes) implements Download {
    }

    /** The body (or its announced length) was longer than the bound; the download was stopped. */
    record TooLarge() implements Download {
    }

    /**
     * The data could not be had: no connection, a time limit passed, a non-2xx status.
     *
     * @param reason why, in a few words for an error message (for example {@code HTTP 404} or
     *               {@code timed out after 30s}); never the response body
     */
    record Failed(String reason) implements Download {
    }

    /** GETs {@code uri}, following redirects, keeping at most {@code maxBytes} bytes of the body. */
    Download download(URI uri, long maxBytes);
}

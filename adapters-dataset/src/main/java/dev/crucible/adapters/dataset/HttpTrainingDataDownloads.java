package dev.crucible.adapters.dataset;

import dev.crucible.application.job.TrainingDataDownloads;
import io.micronaut.context.annotation.Value;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLException;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.util.Timeout;

/**
 * Downloads training data with Apache HttpClient 5: {@code crucible.training-data.connect-timeout} to connect,
 * {@code crucible.training-data.read-timeout} for each whole response, up to five redirects followed (never from
 * https to http, never to another scheme), at most the caller's byte bound kept (a larger {@code Content-Length} is
 * refused before reading; no content coding is asked for, so no compressed body expands past the bound).
 *
 * <p>A caller names the URL, so the server must not become their way into its own network. The client's only
 * resolver is {@link TrainingDataHosts}: each connection's host is looked up once, every address checked, and the
 * connection made to those addresses, so a DNS answer cannot change between the check and the connection; TLS still
 * verifies the certificate against the host name and sends it as SNI. Redirects are followed here, not by the
 * client, so every hop goes through the guard; connections are never reused, so every hop connects (and is checked)
 * anew. No proxy is used. Failures name the host as written, never an address it resolved to.
 */
@Singleton
final class HttpTrainingDataDownloads implements TrainingDataDownloads, AutoCloseable {

    static final int MAX_REDIRECTS = 5;
    private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);

    private final CloseableHttpClient client;
    private final TrainingDataHosts hosts;
    private final Duration connectTimeout;
    private final Duration readTimeout;

    HttpTrainingDataDownloads(@Value("${crucible.training-data.connect-timeout}") Duration connectTimeout,
            @Value("${crucible.training-data.read-timeout}") Duration readTimeout,
            @Value("${crucible.training-data.allow-private-hosts:false}") boolean allowPrivateHosts) {
        this.connectTimeout = connectTimeout;
        this.readTimeout = readTimeout;
        this.hosts = new TrainingDataHosts(allowPrivateHosts);
        ConnectionConfig connections = ConnectionConfig.custom().setConnectTimeout(Timeout.of(connectTimeout))
                .setSocketTimeout(Timeout.of(readTimeout)).build();
        this.client = HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create().setDnsResolver(hosts)
                        .setDefaultConnectionConfig(connections).build())
                .setConnectionReuseStrategy((request, response, context) -> false)
                .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(Timeout.of(readTimeout))
                        .setRedirectsEnabled(false).setContentCompressionEnabled(false).build())
                .disableRedirectHandling().disableAutomaticRetries().disableCookieManagement().disableAuthCaching()
                .disableContentCompression().build();
    }

    @Override
    public Download download(URI uri, long maxBytes) {
        URI at = uri;
        for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
            String scheme = at.getScheme() == null ? "" : at.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) {
                return new Failed("only http(s) URLs are downloaded");
            }
            if (at.getHost() == null) {
                return new Failed("the URL has no host");
            }
            if (SpecialPurposeAddresses.literal(at.getHost())) {
                // checked here too, in case the client takes a literal host's address without its resolver
                try {
                    hosts.resolve(at.getHost());
                } catch (UnknownHostException refused) {
                    return new Failed(refused.getMessage());
                }
            }
            Response response = fetch(at, maxBytes);
            if (response.redirect() == null) {
                return response.download();
            }
            URI next;
            try {
                next = at.resolve(response.redirect());
            } catch (IllegalArgumentException e) {
                return new Failed("a redirect to a malformed URL");
            }
            if ("https".equalsIgnoreCase(at.getScheme()) && !"https".equalsIgnoreCase(next.getScheme())) {
                return new Failed("a redirect from https to " + next.getScheme() + " was refused");
            }
            at = next;
        }
        return new Failed("more than " + MAX_REDIRECTS + " redirects");
    }

    /** One response: the download's end, or where it redirects to. */
    private record Response(Download download, String redirect) {
    }

    private Response fetch(URI uri, long maxBytes) {
        HttpGet get = new HttpGet(uri);
        get.setHeader("Accept", "application/jsonl, application/x-ndjson, text/plain, */*");
        AtomicBoolean late = new AtomicBoolean();
        // the whole response within the read timeout: past it the exchange is aborted, which closes the socket
        CompletableFuture<Void> deadline = CompletableFuture.runAsync(() -> {
            late.set(true);
            get.cancel();
        }, CompletableFuture.delayedExecutor(readTimeout.toMillis(), TimeUnit.MILLISECONDS));
        try (ClassicHttpResponse response = client.executeOpen(null, get, null)) {
            Response answer = read(response, maxBytes);
            if (answer.download() instanceof TooLarge || answer.redirect() != null) {
                get.cancel(); // closing the body would read the rest of it
            }
            return answer;
        } catch (IOException e) {
            get.cancel();
            return new Response(late.get() ? new Failed(tooSlow()) : failure(e), null);
        } finally {
            deadline.cancel(false);
        }
    }

    private static Response read(ClassicHttpResponse response, long maxBytes) throws IOException {
        int status = response.getCode();
        Header location = response.getFirstHeader("Location");
        if (REDIRECTS.contains(status) && location != null) {
            return new Response(null, location.getValue());
        }
        if (status / 100 != 2) {
            return new Response(new Failed("HTTP " + status), null);
        }
        HttpEntity entity = response.getEntity();
        if (entity == null) {
            return new Response(new Body(new byte[0]), null);
        }
        if (entity.getContentLength() > maxBytes) {
            return new Response(new TooLarge(), null);
        }
        try (InputStream in = entity.getContent()) {
            byte[] data = in.readNBytes((int) Math.min(maxBytes + 1, Integer.MAX_VALUE - 8));
            if (data.length > maxBytes) {
                return new Response(new TooLarge(), null);
            }
            return new Response(new Body(data), null);
        }
    }

    private String tooSlow() {
        return "no complete response within " + readTimeout.toSeconds() + "s";
    }

    /** Why the exchange failed, in words that name no address (the client's own messages do). */
    private Download failure(IOException e) {
        return switch (e) {
            case TrainingDataHosts.Refused refused -> new Failed(refused.getMessage());
            case UnknownHostException unknown -> new Failed(unknown.getMessage());
            case ConnectTimeoutException timeout ->
                    new Failed("could not connect within " + connectTimeout.toSeconds() + "s");
            case SocketTimeoutException timeout -> new Failed(tooSlow());
            case ConnectException refused -> new Failed("could not connect");
            case SSLException tls -> new Failed("the TLS handshake or connection failed");
            default -> new Failed("the download failed (" + e.getClass().getSimpleName() + ")");
        };
    }

    @PreDestroy
    @Override
    public void close() throws IOException {
        client.close();
    }
}

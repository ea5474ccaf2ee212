package dev.crucible.adapters.dataset;

import dev.crucible.application.job.TrainingDataDownloads;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Downloads training data with the JDK's HTTP client: {@code crucible.training-data.connect-timeout} to connect,
 * {@code crucible.training-data.read-timeout} for each response, up to five redirects followed (never from https to
 * http), at most the caller's byte bound kept (a larger {@code Content-Length} is refused before reading).
 *
 * <p>A caller names the URL, so the server must not become their way into its own network: unless
 * {@code crucible.training-data.allow-private-hosts} is set, a host that resolves to a loopback, private, link-local,
 * unique-local, carrier-grade NAT, wildcard or multicast address is refused, at the first request and at every
 * redirect (redirects are followed here, not by the client, so each hop is checked). A DNS answer that changes
 * between the check and the connection is not caught; a deployment that needs that guarantee puts an egress proxy
 * in front.
 */
@Singleton
final class HttpTrainingDataDownloads implements TrainingDataDownloads {

    static final int MAX_REDIRECTS = 5;
    private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);

    private final HttpClient client;
    private final Duration connectTimeout;
    private final Duration readTimeout;
    private final boolean allowPrivateHosts;

    HttpTrainingDataDownloads(@Value("${crucible.training-data.connect-timeout}") Duration connectTimeout,
            @Value("${crucible.training-data.read-timeout}") Duration readTimeout,
            @Value("${crucible.training-data.allow-private-hosts:false}") boolean allowPrivateHosts) {
        this.connectTimeout = connectTimeout;
        this.readTimeout = readTimeout;
        this.allowPrivateHosts = allowPrivateHosts;
        this.client = HttpClient.newBuilder().connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    @Override
    public Download download(URI uri, long maxBytes) {
        URI at = uri;
        for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
            Optional<String> refused = refusedHost(at);
            if (refused.isPresent()) {
                return new Failed(refused.get());
            }
            Response response = fetch(at, maxBytes);
            if (response.redirect() == null) {
                return response.download();
            }
            URI next = at.resolve(response.redirect());
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

    private Optional<String> refusedHost(URI uri) {
        if (allowPrivateHosts) {
            return Optional.empty();
        }
        String host = uri.getHost();
        if (host == null) {
            return Optional.of("the URL has no host");
        }
        try {
            for (InetAddress address : InetAddress.getAllByName(host)) {
                if (isInternal(address)) {
                    return Optional.of("host " + host + " resolves to " + address.getHostAddress() + ", an internal "
                            + "address; a server that should read from it sets crucible.training-data."
                            + "allow-private-hosts");
                }
            }
            return Optional.empty();
        } catch (UnknownHostException e) {
            return Optional.of("unknown host " + host);
        }
    }

    /** Loopback, RFC 1918, link-local, unique-local (fc00::/7), carrier-grade NAT (100.64/10), wildcard, multicast. */
    static boolean isInternal(InetAddress address) {
        byte[] raw = address.getAddress();
        boolean uniqueLocal = address instanceof Inet6Address && (raw[0] & 0xfe) == 0xfc;
        boolean carrierNat = raw.length == 4 && (raw[0] & 0xff) == 100 && (raw[1] & 0xc0) == 64;
        return address.isLoopbackAddress() || address.isSiteLocalAddress() || address.isLinkLocalAddress()
                || address.isAnyLocalAddress() || address.isMulticastAddress() || uniqueLocal || carrierNat;
    }

    private Response fetch(URI uri, long maxBytes) {
        HttpRequest request = HttpRequest.newBuilder(uri).GET().timeout(readTimeout)
                .header("Accept", "application/jsonl, application/x-ndjson, text/plain, */*").build();
        CompletableFuture<HttpResponse<byte[]>> response = client.sendAsync(request, info -> {
            if (info.statusCode() / 100 != 2) {
                return HttpResponse.BodySubscribers.replacing(new byte[0]);
            }
            BoundedBody body = new BoundedBody(maxBytes);
            if (info.headers().firstValueAsLong("Content-Length").orElse(0) > maxBytes) {
                body.onError(new BoundedBody.TooLarge());
            }
            return body;
        });
        try {
            HttpResponse<byte[]> answer = response.get(readTimeout.toMillis(), TimeUnit.MILLISECONDS);
            Optional<String> location = answer.headers().firstValue("Location");
            if (REDIRECTS.contains(answer.statusCode()) && location.isPresent()) {
                return new Response(null, location.get());
            }
            return new Response(answer.statusCode() / 100 == 2 ? new Body(answer.body())
                    : new Failed("HTTP " + answer.statusCode()), null);
        } catch (TimeoutException e) {
            response.cancel(true);
            return new Response(new Failed("no complete response within " + readTimeout.toSeconds() + "s"), null);
        } catch (InterruptedException e) {
            response.cancel(true);
            Thread.currentThread().interrupt();
            return new Response(new Failed("interrupted"), null);
        } catch (ExecutionException e) {
            return new Response(failure(e.getCause()), null);
        }
    }

    private Download failure(Throwable cause) {
        return switch (cause) {
            case BoundedBody.TooLarge tooLarge -> new TooLarge();
            case HttpConnectTimeoutException timeout ->
                    new Failed("could not connect within " + connectTimeout.toSeconds() + "s");
            case HttpTimeoutException timeout -> new Failed("no response within " + readTimeout.toSeconds() + "s");
            case ConnectException refused -> new Failed("could not connect");
            case IOException io when io.getCause() instanceof BoundedBody.TooLarge -> new TooLarge();
            case IOException io -> new Failed(io.getMessage() == null ? io.getClass().getSimpleName() : io.getMessage());
            default -> throw new IllegalStateException("training data download failed unexpectedly", cause);
        };
    }
}

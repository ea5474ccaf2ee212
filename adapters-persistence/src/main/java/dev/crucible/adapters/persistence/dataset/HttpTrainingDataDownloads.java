package dev.crucible.adapters.persistence.dataset;

import dev.crucible.application.job.TrainingDataDownloads;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Downloads training data with the JDK's HTTP client: {@code crucible.training-data.connect-timeout} to connect,
 * {@code crucible.training-data.read-timeout} for the whole response, redirects followed (never from https to
 * http), at most the caller's byte bound kept (a larger {@code Content-Length} is refused before reading).
 */
@Singleton
final class HttpTrainingDataDownloads implements TrainingDataDownloads {

    private final HttpClient client;
    private final Duration connectTimeout;
    private final Duration readTimeout;

    HttpTrainingDataDownloads(@Value("${crucible.training-data.connect-timeout}") Duration connectTimeout,
            @Value("${crucible.training-data.read-timeout}") Duration readTimeout) {
        this.connectTimeout = connectTimeout;
        this.readTimeout = readTimeout;
        this.client = HttpClient.newBuilder().connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NORMAL).build();
    }

    @Override
    public Download download(URI uri, long maxBytes) {
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
            return answer.statusCode() / 100 == 2 ? new Body(answer.body()) : new Failed("HTTP " + answer.statusCode());
        } catch (TimeoutException e) {
            response.cancel(true);
            return new Failed("no complete response within " + readTimeout.toSeconds() + "s");
        } catch (InterruptedException e) {
            response.cancel(true);
            Thread.currentThread().interrupt();
            return new Failed("interrupted");
        } catch (ExecutionException e) {
            return failure(e.getCause());
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

package dev.crucible.adapters.dataset;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.job.TrainingDataDownloads;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HttpTrainingDataDownloadsTest {

    private static final byte[] DATA = "{\"messages\": []}\n".getBytes(StandardCharsets.UTF_8);

    private final LocalHttp http = new LocalHttp();
    private final HttpTrainingDataDownloads downloads =
            new HttpTrainingDataDownloads(Duration.ofSeconds(2), Duration.ofMillis(800), true);

    @AfterEach
    void stop() {
        http.close();
    }

    @Test
    void returnsTheBodyOfA200() {
        http.on("/train.jsonl", ex -> LocalHttp.send(ex, 200, DATA));
        var body = assertInstanceOf(TrainingDataDownloads.Body.class, downloads.download(http.uri("/train.jsonl"), 1000));
        assertArrayEquals(DATA, body.bytes());
    }

    @Test
    void aBodyOfExactlyTheBoundIsKept() {
        http.on("/train.jsonl", ex -> LocalHttp.send(ex, 200, DATA));
        assertInstanceOf(TrainingDataDownloads.Body.class, downloads.download(http.uri("/train.jsonl"), DATA.length));
    }

    @Test
    void aNon2xxStatusFailsNamingIt() {
        http.on("/gone.jsonl", ex -> LocalHttp.send(ex, 404, "not here".getBytes(StandardCharsets.UTF_8)));
        assertEquals(new TrainingDataDownloads.Failed("HTTP 404"), downloads.download(http.uri("/gone.jsonl"), 1000));
    }

    @Test
    void redirectsAreFollowed() {
        http.on("/old.jsonl", ex -> {
            ex.getResponseHeaders().add("Location", "/new.jsonl");
            LocalHttp.send(ex, 302, new byte[0]);
        });
        http.on("/new.jsonl", ex -> LocalHttp.send(ex, 200, DATA));
        assertInstanceOf(TrainingDataDownloads.Body.class, downloads.download(http.uri("/old.jsonl"), 1000));
    }

    @Test
    void internalHostsAreRefusedUnlessAllowedAlsoWhenARedirectLeadsThereNamingNoAddress() {
        HttpTrainingDataDownloads guarded = new HttpTrainingDataDownloads(Duration.ofSeconds(2), Duration.ofMillis(800),
                false);
        http.on("/train.jsonl", ex -> LocalHttp.send(ex, 200, DATA));
        http.on("/hop.jsonl", ex -> {
            ex.getResponseHeaders().add("Location", "http://localhost:" + http.uri("/").getPort() + "/train.jsonl");
            LocalHttp.send(ex, 302, new byte[0]);
        });
        // a name (checked by the client's resolver, at connection) and a literal (checked before the request)
        for (URI internal : List.of(URI.create("http://localhost:" + http.uri("/").getPort() + "/train.jsonl"),
                http.uri("/train.jsonl"))) {
            var refused = assertInstanceOf(TrainingDataDownloads.Failed.class, guarded.download(internal, 1000));
            assertTrue(refused.reason().contains("special-purpose address") && refused.reason().contains(
                    "crucible.training-data.allow-private-hosts"), refused.reason());
            assertFalse(refused.reason().contains("127.0.0.1") && internal.getHost().equals("localhost"),
                    "names no address the host resolved to: " + refused.reason());
            assertFalse(refused.reason().contains("0:0:0:0:0:0:0:1") || refused.reason().contains("::1"),
                    refused.reason());
        }
        // the redirect is allowed by an open server, refused by a guarded one at the hop
        assertInstanceOf(TrainingDataDownloads.Body.class, downloads.download(http.uri("/hop.jsonl"), 1000));
        assertInstanceOf(TrainingDataDownloads.Failed.class, guarded.download(http.uri("/hop.jsonl"), 1000));
    }

    @Test
    void ambiguousIpv4LiteralsAreRefusedEvenWherePrivateHostsAreAllowed() {
        for (String host : List.of("0177.0.0.1", "2130706433", "127.000.0.1")) {
            var refused = assertInstanceOf(TrainingDataDownloads.Failed.class,
                    downloads.download(URI.create("http://" + host + ":9/t.jsonl"), 1000));
            assertTrue(refused.reason().contains("four decimal numbers"), refused.reason());
        }
    }

    /** A redirect to another scheme, and one redirect too many, are refused saying which. */
    @ParameterizedTest(name = "{2}")
    @CsvSource({
        "/file.jsonl, file:///etc/passwd, only http(s) URLs are downloaded",
        "/loop.jsonl, /loop.jsonl, more than 5 redirects"})
    void aRedirectElsewhereOrEndlessIsRefused(String path, String location, String reason) {
        http.on(path, ex -> {
            ex.getResponseHeaders().add("Location", location);
            LocalHttp.send(ex, 302, new byte[0]);
        });
        assertEquals(new TrainingDataDownloads.Failed(reason), downloads.download(http.uri(path), 1000));
    }

    @Test
    void aLargerContentLengthIsTooLarge() {
        http.on("/big.jsonl", ex -> LocalHttp.send(ex, 200, new byte[5000]));
        assertEquals(new TrainingDataDownloads.TooLarge(), downloads.download(http.uri("/big.jsonl"), 4999));
    }

    @Test
    void anEndlessChunkedBodyIsCutAtTheBound() {
        http.on("/endless.jsonl", ex -> {
            ex.sendResponseHeaders(200, 0);
            try (OutputStream out = ex.getResponseBody()) {
                for (int i = 0; i < 100_000; i++) {
                    out.write(DATA);
                }
            }
        });
        // a long read timeout: this is about the byte bound, and a busy machine may pause the writer for a while
        HttpTrainingDataDownloads patient = new HttpTrainingDataDownloads(Duration.ofSeconds(2), Duration.ofSeconds(30),
                true);
        assertEquals(new TrainingDataDownloads.TooLarge(), patient.download(http.uri("/endless.jsonl"), 10_000));
    }

    @Test
    void aServerThatStallsTimesOut() {
        http.on("/slow.jsonl", ex -> {
            ex.sendResponseHeaders(200, 0);
            ex.getResponseBody().write(DATA);
            ex.getResponseBody().flush();
            try {
                Thread.sleep(3000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long start = System.nanoTime();
        var failed = assertInstanceOf(TrainingDataDownloads.Failed.class,
                downloads.download(http.uri("/slow.jsonl"), 10_000));
        assertTrue(failed.reason().startsWith("no complete response within"), failed.reason());
        assertTrue(System.nanoTime() - start < 2_500_000_000L, "gave up after the read timeout");
    }

    @Test
    void nobodyListeningFailsToConnect() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        var failed = assertInstanceOf(TrainingDataDownloads.Failed.class,
                downloads.download(URI.create("http://127.0.0.1:" + port + "/t.jsonl"), 1000));
        assertEquals("could not connect", failed.reason());
    }
}

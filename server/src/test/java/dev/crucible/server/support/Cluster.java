package dev.crucible.server.support;

import dev.crucible.server.Crucible;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Several {@code crucible serve} processes, each a JVM of its own with the given role, on one database and one data
 * directory (or, with {@link #withOwnDataDirs}, a data directory each, as on separate machines): the layout of a
 * deployment (API replicas and workers) on one machine. Each child logs to its own file in
 * the data directory. Extra arguments (say {@code --blob-store s3://…}) and environment variables (the AWS settings)
 * go to every child, so a shared blob store can replace the shared data directory without changing the tests.
 * Children beat, claim and time out fast (heartbeats of 200 ms, stale after 2 s) so the tests see deaths quickly.
 */
public final class Cluster implements AutoCloseable {

    /** The API key every child registers (for entity {@value #ENTITY}). */
    public static final String KEY = "cluster-key-0123456789abcdef";
    public static final String ENTITY = "cluster";
    private static final Map<String, String> FAST = Map.of(
            "crucible.runner.poll-interval", "100ms",
            "crucible.runner.heartbeat-interval", "200ms",
            "crucible.runner.stale-after", "2s",
            "crucible.process.heartbeat-interval", "200ms",
            "crucible.process.stale-after", "2s");

    /** One child: its role, process and port. */
    public record Member(String name, String role, Process process, int port, Path log) {

        public String url() {
            return "http://127.0.0.1:" + port;
        }

        /** A client of this child with the cluster's key. */
        public Api api() {
            return new Api(url(), KEY);
        }

        /** SIGTERM: the graceful stop. */
        public void terminate() {
            process.destroy();
        }

        /** SIGKILL: nothing runs after it. */
        public void kill() {
            process.destroyForcibly();
        }

        /** Waits for the process to end; its exit code, or -1 when it still runs after {@code limit}. */
        public int awaitExit(Duration limit) throws InterruptedException {
            return process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
        }

        /** The end of its log, for failure messages. */
        public String logTail() {
            try {
                List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
                return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
            } catch (IOException e) {
                return "(no log: " + e.getMessage() + ")";
            }
        }
    }

    private final String databaseUrl;
    private final Path dataDir;
    private final List<String> sharedArgs = new ArrayList<>();
    private final Map<String, String> sharedEnv = new LinkedHashMap<>();
    private final List<Member> members = new ArrayList<>();
    private boolean ownDataDirs;

    /** A cluster on the PostgreSQL at {@code databaseUrl} (user postgres, no password) sharing {@code dataDir}. */
    public Cluster(String databaseUrl, Path dataDir) {
        this.databaseUrl = databaseUrl;
        this.dataDir = dataDir;
    }

    /** Adds command-line arguments every child started from now on gets (for example {@code --blob-store}). */
    public Cluster withArgs(String... args) {
        sharedArgs.addAll(List.of(args));
        return this;
    }

    /** Adds an environment variable every child started from now on gets. */
    public Cluster withEnv(String name, String value) {
        sharedEnv.put(name, value);
        return this;
    }

    /** Gives every child started from now on a data directory of its own, inside {@link #dataDir}. */
    public Cluster withOwnDataDirs() {
        ownDataDirs = true;
        return this;
    }

    public Path dataDir() {
        return dataDir;
    }

    /**
     * Starts a child with {@code role} and the JVM system {@code properties} (say {@code test.trainer}), and waits
     * until its {@code /v1/health} answers 200.
     *
     * @throws AssertionError when it ends or does not answer within three minutes
     */
    public Member start(String role, Map<String, String> properties) throws IOException, InterruptedException {
        Member member = launch(role, properties);
        awaitServing(member);
        return member;
    }

    /**
     * Starts a child like {@link #start} without waiting for it to serve, so that several JVMs start at once (each
     * start is a JVM and a Micronaut context: seconds); {@link #awaitServing} waits for them.
     */
    public Member launch(String role, Map<String, String> properties) throws IOException {
        String name = role + "-" + (members.size() + 1);
        int port = freePort();
        Path log = dataDir.resolve(name + ".log");
        Map<String, String> props = new HashMap<>(FAST);
        props.putAll(properties);
        List<String> options = new ArrayList<>(ChildJvm.QUICK_START);
        options.addAll(List.of("-Xmx1g", "--enable-native-access=ALL-UNNAMED"));
        props.forEach((k, v) -> options.add("-D" + k + "=" + v));
        List<String> command = ChildJvm.command(ChildJvm.SERVER, options);
        command.addAll(List.of(Crucible.class.getName(), "serve", "--role", role, "--port", Integer.toString(port),
                "--data-dir", (ownDataDirs ? Files.createDirectories(dataDir.resolve(name)) : dataDir).toString(), "--database-url", databaseUrl, "--database-user", "postgres"));
        command.addAll(sharedArgs);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("CRUCIBLE_API_KEY", KEY);
        builder.environment().put("CRUCIBLE_ENTITY", ENTITY);
        builder.environment().putAll(sharedEnv);
        Member member = new Member(name, role, builder.start(), port, log);
        members.add(member);
        return member;
    }

    /**
     * Waits until each of {@code started} answers {@code /v1/health} with 200.
     *
     * @throws AssertionError when one ends or does not answer within three minutes
     */
    public static void awaitServing(Member... started) throws InterruptedException {
        for (Member member : started) {
            awaitHealthy(member);
        }
    }

    private static void awaitHealthy(Member member) throws InterruptedException {
        HttpClient client = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < deadline) {
            if (!member.process().isAlive()) {
                throw new AssertionError(member.name() + " ended before it served:\n" + member.logTail());
            }
            try {
                HttpResponse<String> reply = client.send(HttpRequest.newBuilder(URI.create(member.url() + "/v1/health"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                if (reply.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new AssertionError(member.name() + " did not answer /v1/health in 3 minutes:\n" + member.logTail());
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Kills every child still running. */
    @Override
    public void close() {
        for (Member member : members) {
            member.kill();
        }
        for (Member member : members) {
            try {
                member.awaitExit(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

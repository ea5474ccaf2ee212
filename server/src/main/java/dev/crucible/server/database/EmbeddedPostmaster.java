package dev.crucible.server.database;

import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded PostgreSQL's postmaster as {@link Supervisor} sees it: alive while the process named in
 * {@code postmaster.pid} runs; restarted with {@code pg_ctl restart}, which starts the server again with the very
 * command line it last ran with ({@code postmaster.opts}: the same binaries, data, port and settings, so the pool's
 * URL and the password stay valid), and runs crash recovery first.
 *
 * <p>Before it starts, it waits out what makes PostgreSQL refuse to start: processes of the dead server still attached
 * to its shared memory. A dead postmaster that nobody has reaped yet (a zombie, as under a container's init that
 * does not reap) would pass PostgreSQL's own liveness check forever; its {@code postmaster.pid} and socket lock file
 * are removed, which is safe once no process of the old server is attached to its shared memory.
 */
final class EmbeddedPostmaster implements Supervisor.Supervised {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostmaster.class);
    private static final long START_TIMEOUT_SECONDS = 120;

    private final Path folder;
    private final Path log;
    private volatile long pid;

    /**
     * @param folder the PostgreSQL data directory of a server this process has just started
     * @param log where a restarted server writes its output
     */
    EmbeddedPostmaster(Path folder, Path log) {
        this.folder = folder;
        this.log = log;
        this.pid = PostmasterFile.read(folder).map(PostmasterFile::pid)
                .orElseThrow(() -> new IllegalStateException("no " + PostmasterFile.NAME + " in " + folder));
    }

    long pid() {
        return pid;
    }

    @Override
    public boolean alive() {
        return Processes.state(pid) == Processes.State.RUNNING;
    }

    @Override
    public void restart() throws IOException, InterruptedException {
        var stale = PostmasterFile.read(folder);
        if (stale.isPresent()) {
            PostmasterFile old = stale.get();
            Processes.State state = Processes.state(old.pid());
            if (old.pid() != pid && state == Processes.State.RUNNING) {
                LOG.info("The embedded PostgreSQL was started again by someone else (pid {}); supervising that one", old.pid());
                pid = old.pid();
                return;
            }
            if (state == Processes.State.RUNNING) {
                throw new IOException("the old postmaster (pid " + old.pid() + ") still runs");
            }
            if (old.sharedMemoryId().isPresent() && Processes.sharedMemoryAttached(old.sharedMemoryId().getAsInt())) {
                throw new IOException("processes of the old server are still attached to its shared memory");
            }
            if (state == Processes.State.ZOMBIE) {
                Files.deleteIfExists(folder.resolve(PostmasterFile.NAME));
                if (old.socketLock().isPresent() && ownedBy(old.socketLock().get(), old.pid())) {
                    Files.deleteIfExists(old.socketLock().get());
                }
            }
        }
        pgCtlRestart();
        pid = PostmasterFile.read(folder).map(PostmasterFile::pid)
                .orElseThrow(() -> new IOException("PostgreSQL started but wrote no " + PostmasterFile.NAME));
    }

    /** Whether the lock file at {@code lock} names {@code pid} on its first line. */
    private static boolean ownedBy(Path lock, long pid) {
        try {
            List<String> lines = Files.readAllLines(lock);
            return !lines.isEmpty() && lines.getFirst().strip().equals(Long.toString(pid));
        } catch (IOException e) {
            return false;
        }
    }

    private void pgCtlRestart() throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        if (LinuxUtils.isUnshareAvailable()) {
            // As zonky starts it: PostgreSQL refuses to run as root, so as root it runs in a user namespace of its own.
            command.addAll(List.of("unshare", "-U"));
        }
        command.addAll(List.of(pgCtl().toString(), "restart", "-D", folder.toString(), "-w",
                "-t", Long.toString(START_TIMEOUT_SECONDS), "-l", log.toString()));
        Path output = Files.createTempFile("crucible-pg-ctl-", ".log");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
            int exit;
            try {
                exit = process.waitFor();
            } catch (InterruptedException e) {
                // Closing: let pg_ctl finish, so that the server it may have started is in postmaster.pid to be stopped.
                process.waitFor(START_TIMEOUT_SECONDS + 5, TimeUnit.SECONDS);
                throw e;
            }
            if (exit != 0) {
                String said = Files.readString(output, StandardCharsets.UTF_8).strip().replace('\n', ' ');
                throw new IOException("pg_ctl restart exited with " + exit + ": " + said + " (server log: " + log + ")");
            }
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /** {@code pg_ctl} next to the {@code postgres} binary that {@code postmaster.opts} names. */
    private Path pgCtl() throws IOException {
        String opts = Files.readString(folder.resolve("postmaster.opts"), StandardCharsets.UTF_8).strip();
        int firstArgument = opts.indexOf(" \"");
        Path postgres = Path.of(firstArgument < 0 ? opts : opts.substring(0, firstArgument));
        return postgres.resolveSibling("pg_ctl");
    }
}

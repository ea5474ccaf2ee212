package dev.crucible.server.support;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The start of the command line of a JVM a test runs as a child process (a {@code crucible serve}, a worker, a client
 * command): this JVM's {@code java} and class path, and a class-data archive the children of one kind share.
 *
 * <p>A child spends much of its start loading and verifying the same few thousand classes from the same 350 jars
 * (about 40% of a server's CPU time until it serves). The first child of a kind writes the classes it loads to a list
 * ({@code -XX:DumpLoadedClassList}, line by line, so a child killed with SIGKILL leaves it whole); once that list has
 * stopped growing for {@value #QUIET_MS} ms, the next request for the kind starts a JVM in the background that writes
 * the classes of the list to an archive ({@code -Xshare:dump}), and every child started after it is ready maps the
 * archive ({@code -XX:SharedArchiveFile}) instead. No child writes an archive at its exit, so none stops any slower,
 * and a child that finds no usable archive starts as before (the JVM says nothing: {@code -Xlog:cds*=off}). The
 * archives live in a folder of this test JVM, removed when it ends, so no run reads another's. The JVM refuses an
 * archive for a class path with a non-empty folder in it, so each folder on the class path (the module's test classes)
 * is copied into a jar once. Nothing a child does changes: it runs the same classes from the same files' contents.
 */
public final class ChildJvm {

    /** The archive of the children that run a server ({@code crucible serve}, {@link ChildServer}). */
    public static final String SERVER = "server";
    /** The archive of the short-lived client commands. */
    public static final String CLIENT = "client";

    /**
     * Options for a child that a test starts many times over and that computes little in Java (the engines' work is
     * native): the C1 compiler only and the serial collector, which spend far less CPU on start-up than the defaults
     * (C2 compiler threads, G1). With the archive, a server child's CPU time until it serves fell from about 12 s to
     * about 4 s on the 2-core machine.
     */
    public static final List<String> QUICK_START = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    private static final long QUIET_MS = 2_000;
    private static final String QUIET_LOG = "-Xlog:cds*=off";

    private static Path folder;
    private static String classPath;
    /** The kinds whose class list is being written or done, with the options of the child that writes it. */
    private static final Map<String, List<String>> LISTED = new HashMap<>();
    /** The kinds whose archive is being written or done. */
    private static final Set<String> ARCHIVING = new HashSet<>();

    private ChildJvm() {
    }

    /**
     * {@code java}, {@code options}, the options of archive {@code kind} and the class path, ready for a main class
     * and its arguments.
     */
    public static List<String> command(String kind, String... options) {
        return command(kind, List.of(options));
    }

    /** {@link #command(String, String...)} with the options in a list. */
    public static List<String> command(String kind, List<String> options) {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(options);
        command.add(QUIET_LOG);
        command.addAll(archiveOptions(kind, options));
        command.addAll(List.of("-cp", classPath()));
        return command;
    }

    private static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    private static synchronized List<String> archiveOptions(String kind, List<String> options) {
        Path list = folder().resolve(kind + ".classlist");
        Path archive = folder().resolve(kind + ".jsa");
        if (!LISTED.containsKey(kind)) {
            LISTED.put(kind, List.copyOf(options));
            return List.of("-XX:DumpLoadedClassList=" + list);
        }
        if (Files.exists(archive)) {
            return List.of("-XX:SharedArchiveFile=" + archive);
        }
        if (!ARCHIVING.contains(kind) && quiet(list)) {
            ARCHIVING.add(kind);
            archive(list, archive, LISTED.get(kind));
        }
        return List.of();
    }

    private static boolean quiet(Path list) {
        try {
            return Files.size(list) > 0
                    && System.currentTimeMillis() - Files.getLastModifiedTime(list).toMillis() > QUIET_MS;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Writes the classes of {@code list} to {@code archive} in a JVM of its own with the options of the child that
     * listed them, in the background; the archive appears under its name only once it is whole.
     */
    private static void archive(Path list, Path archive, List<String> options) {
        try {
            Path written = Files.createTempFile(folder(), "archive-", ".jsa");
            List<String> command = new ArrayList<>(List.of(java()));
            command.addAll(options);
            command.addAll(List.of(QUIET_LOG, "-Xshare:dump", "-XX:SharedClassListFile=" + list,
                    "-XX:SharedArchiveFile=" + written, "-cp", classPath()));
            Process dump = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(folder().resolve(archive.getFileName() + ".log").toFile()).start();
            dump.onExit().thenAccept(ended -> {
                try {
                    if (ended.exitValue() == 0) {
                        Files.move(written, archive, StandardCopyOption.ATOMIC_MOVE);
                    } else {
                        Files.deleteIfExists(written);
                    }
                } catch (IOException e) {
                    // no archive: children start as before
                }
            });
        } catch (IOException e) {
            // no archive: children start as before
        }
    }

    private static synchronized Path folder() {
        if (folder == null) {
            try {
                folder = Files.createTempDirectory("crucible-child-jvm-");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Path made = folder;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(made)));
        }
        return folder;
    }

    /** This JVM's class path with each folder in it replaced by a jar of its files. */
    private static synchronized String classPath() {
        if (classPath == null) {
            List<String> entries = new ArrayList<>();
            for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                Path path = Path.of(entry);
                entries.add(Files.isDirectory(path) ? jar(path, folder().resolve("cp-" + entries.size() + ".jar"))
                        .toString() : entry);
            }
            classPath = String.join(File.pathSeparator, entries);
        }
        return classPath;
    }

    private static Path jar(Path classes, Path jar) {
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
                Stream<Path> files = Files.walk(classes)) {
            for (Path path : files.sorted().toList()) {
                String name = classes.relativize(path).toString().replace(File.separatorChar, '/');
                if (name.isEmpty()) {
                    continue;
                }
                boolean directory = Files.isDirectory(path);
                out.putNextEntry(new JarEntry(directory ? name + "/" : name));
                if (!directory) {
                    Files.copy(path, out);
                }
                out.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return jar;
    }

    private static void delete(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a temporary folder left behind
        }
    }
}

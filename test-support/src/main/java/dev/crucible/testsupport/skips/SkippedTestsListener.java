package dev.crucible.testsupport.skips;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Writes every test class or method that did not run (a failed assumption, {@code @Disabled}) with its reason to
 * {@code target/skipped-tests/} of the module under test, one file per test JVM, for {@code scripts/test} to print at
 * the end of the run. Surefire and failsafe cannot say it: a class whose {@code @BeforeAll} assumption fails (no
 * Chromium, no Prometheus) is reported as "Tests run: 0" and passes. Found by JUnit through
 * {@code META-INF/services}, so every module whose tests use test-support has it; it never fails a run.
 */
public final class SkippedTestsListener implements TestExecutionListener {

    /** The folder, relative to the module (surefire's working directory), that the lists are written to. */
    public static final Path FOLDER = Path.of("target", "skipped-tests");

    private final List<String> skipped = new ArrayList<>();

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        record(test, reason);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            record(test, result.getThrowable().map(Throwable::getMessage).orElse(null));
        }
    }

    private synchronized void record(TestIdentifier test, String reason) {
        name(test.getSource()).ifPresent(name -> skipped.add(name + ": "
                + (reason == null || reason.isBlank() ? "no reason given" : reason.strip().replace('\n', ' '))));
    }

    private static Optional<String> name(Optional<TestSource> source) {
        return source.map(s -> switch (s) {
            case ClassSource c -> c.getClassName();
            case MethodSource m -> m.getClassName() + "#" + m.getMethodName();
            default -> null;
        });
    }

    @Override
    public synchronized void testPlanExecutionFinished(TestPlan plan) {
        if (skipped.isEmpty()) {
            return;
        }
        try {
            Files.createDirectories(FOLDER);
            Files.write(FOLDER.resolve(ProcessHandle.current().pid() + "-" + System.nanoTime() + ".txt"), skipped,
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the list of skipped tests", e);
        }
        skipped.clear();
    }
}

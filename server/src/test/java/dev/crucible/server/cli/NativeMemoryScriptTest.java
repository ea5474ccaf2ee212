package dev.crucible.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's choice of pages for the weights ({@code scripts/native-memory.sh}), run in bash against sysfs trees
 * written here: huge pages unless DAMON samples physical memory, and what {@code CRUCIBLE_HUGEPAGES} and
 * {@code GLIBC_TUNABLES} say over that.
 */
class NativeMemoryScriptTest {

    private static final Path SCRIPT = Path.of("..", "scripts", "native-memory.sh").toAbsolutePath().normalize();

    @TempDir
    Path sys;

    @Test
    void aKdamondOnWithPhysicalAddressOperationsTurnsHugePagesOff() throws Exception {
        kdamond(0, "on", "paddr");
        assertEquals(new Result(1, ""), run("crucible_hugepages_wanted \"$SYS\"", Map.of()));
        assertEquals(new Result(0, ""), run("crucible_damon_samples_physical \"$SYS\"", Map.of()));
    }

    @Test
    void aKdamondThatIsOffOrWatchesVirtualAddressesLeavesThemOn() throws Exception {
        kdamond(0, "off", "paddr");
        kdamond(1, "on", "vaddr");
        assertEquals(new Result(0, ""), run("crucible_hugepages_wanted \"$SYS\"", Map.of()));
    }

    @Test
    void noDamonAtAllLeavesThemOn() throws Exception {
        assertEquals(new Result(0, ""), run("crucible_hugepages_wanted \"$SYS\"", Map.of()));
    }

    @Test
    void theReclaimModulesCountAsMonitors() throws Exception {
        module("damon_lru_sort", "N");
        assertEquals(new Result(1, ""), run("crucible_damon_samples_physical \"$SYS\"", Map.of()));
        module("damon_reclaim", "Y");
        assertEquals(new Result(0, ""), run("crucible_damon_samples_physical \"$SYS\"", Map.of()));
    }

    @Test
    void theSettingOverridesTheDetection() throws Exception {
        kdamond(0, "on", "paddr");
        assertEquals(new Result(0, ""), run("crucible_hugepages_wanted \"$SYS\"", Map.of("CRUCIBLE_HUGEPAGES", "on")));
        Files.delete(sys.resolve("kernel/mm/damon/admin/kdamonds/0/state"));
        assertEquals(new Result(1, ""), run("crucible_hugepages_wanted \"$SYS\"",
                Map.of("CRUCIBLE_HUGEPAGES", "off")));
    }

    @Test
    void theTunablesKeepTheCallersAndAddHugePagesOnlyWhenWantedAndNotNamed() throws Exception {
        assertEquals(new Result(0,
                "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=2097152"),
                run("crucible_glibc_tunables",
                        Map.of("CRUCIBLE_HUGEPAGES", "on", "GLIBC_TUNABLES", "glibc.malloc.arena_max=2")));
        assertEquals(new Result(0, "glibc.malloc.mmap_threshold=4194304:glibc.malloc.hugetlb=1"),
                run("crucible_glibc_tunables", Map.of("CRUCIBLE_HUGEPAGES", "on", "GLIBC_TUNABLES",
                        "glibc.malloc.mmap_threshold=4194304")));
        assertEquals(new Result(0, "glibc.malloc.hugetlb=0"), run("crucible_glibc_tunables",
                Map.of("CRUCIBLE_HUGEPAGES", "on", "GLIBC_TUNABLES", "glibc.malloc.hugetlb=0")));
        assertEquals(new Result(0, ""), run("crucible_glibc_tunables", Map.of("CRUCIBLE_HUGEPAGES", "off")));
    }

    @Test
    void theNoteSaysWhatTheWeightsGotAndWhy() throws Exception {
        assertEquals(new Result(0, "weights on huge pages: yes (CRUCIBLE_HUGEPAGES=on)"),
                run("crucible_hugepages_note", Map.of("CRUCIBLE_HUGEPAGES", "on")));
        assertEquals(new Result(0, "weights on huge pages: no (CRUCIBLE_HUGEPAGES=off)"),
                run("crucible_hugepages_note", Map.of("CRUCIBLE_HUGEPAGES", "off")));
        assertEquals(new Result(0, "weights on huge pages: no (GLIBC_TUNABLES names glibc.malloc.hugetlb)"),
                run("crucible_hugepages_note", Map.of("CRUCIBLE_HUGEPAGES", "on", "GLIBC_TUNABLES",
                        "glibc.malloc.hugetlb=0")));
    }

    @Test
    void anUnknownSettingIsRefusedByName() throws Exception {
        Result refused = run("crucible_check_hugepages_setting 2>&1", Map.of("CRUCIBLE_HUGEPAGES", "yes"));
        assertEquals(1, refused.status());
        assertTrue(refused.out().contains("CRUCIBLE_HUGEPAGES must be auto, on or off, not 'yes'"), refused.out());
        assertEquals(new Result(0, ""), run("crucible_check_hugepages_setting", Map.of("CRUCIBLE_HUGEPAGES", "auto")));
    }

    private void kdamond(int index, String state, String operations) throws IOException {
        Path kdamond = sys.resolve("kernel/mm/damon/admin/kdamonds/" + index);
        write(kdamond.resolve("state"), state);
        write(kdamond.resolve("contexts/0/operations"), operations);
    }

    private void module(String name, String enabled) throws IOException {
        write(sys.resolve("module/" + name + "/parameters/enabled"), enabled);
    }

    private static void write(Path file, String line) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, line + "\n");
    }

    /** Sources the script in a bash with only {@code env} and SYS set, runs {@code command}, prints its status. */
    private Result run(String command, Map<String, String> env) throws Exception {
        assertTrue(Files.isRegularFile(SCRIPT), SCRIPT.toString());
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", "source \"$SCRIPT\"; " + command + "; echo \"$?\"")
                .redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().put("PATH", System.getenv("PATH"));
        builder.environment().put("SCRIPT", SCRIPT.toString());
        builder.environment().put("SYS", sys.toString());
        builder.environment().putAll(env);
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, process.waitFor(), out);
        int last = out.lastIndexOf('\n');
        return new Result(Integer.parseInt(out.substring(last + 1)), last < 0 ? "" : out.substring(0, last));
    }

    private record Result(int status, String out) {
    }
}

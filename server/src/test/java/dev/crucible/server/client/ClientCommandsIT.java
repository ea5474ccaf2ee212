package dev.crucible.server.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client commands as a script runs them against a running server, checked by what they print and the exit code.
 * What a command does runs on {@code crucible}'s command line in this JVM ({@link CliInThisJvm}); what a process of its
 * own adds (the key and address from the environment, standard input, a terminal) runs as one ({@link CliProcess}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClientCommandsIT {

    private static final String CHATS = """
            {"messages":[{"role":"user","content":"Say hi"},{"role":"assistant","content":"hi"}]}
            {"messages":[{"role":"user","content":"Say bye"},{"role":"assistant","content":"bye"}]}
            """;
    private static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private TestServer server;
    private CliInThisJvm cli;
    private CliProcess process;
    private String key;

    @TempDir
    Path dir;

    @BeforeAll
    void start() {
        server = TestServer.start(Map.of());
        key = server.newKey("cli-team");
        cli = new CliInThisJvm(server.url(), key);
        process = new CliProcess(Map.of("CRUCIBLE_BASE_URL", server.url(), "CRUCIBLE_API_KEY", key));
    }

    @AfterAll
    void stop() {
        server.close();
    }

    private String createModel(String name) {
        CliProcess.Result created = cli.run("models", "create", "--project", "demo", "--name", name,
                "--base-model", TestServer.BASE_MODEL);
        assertEquals(0, created.code(), created::toString);
        String id = created.out().strip();
        assertTrue(UUID.matcher(id).matches(), created::toString);
        return id;
    }

    @Test
    void aModelIsCreatedListedAndDeleted() {
        String id = createModel("listed");
        CliProcess.Result list = cli.run("models", "list");
        assertEquals(0, list.code(), list::toString);
        assertTrue(list.out().contains("crucible:///cli-team/demo/listed"), list::toString);
        assertTrue(list.out().contains(TestServer.BASE_MODEL), list::toString);
        CliProcess.Result trainable = cli.run("models", "list", "--trainable");
        assertEquals(0, trainable.code(), trainable::toString);
        assertTrue(trainable.out().lines().anyMatch(l -> l.startsWith(id) && l.contains("cli-team/demo/listed")),
                trainable::toString);

        CliProcess.Result checkpoints = cli.run("checkpoints", "list", id);
        assertEquals(0, checkpoints.code(), checkpoints::toString);
        assertTrue(checkpoints.out().lines().anyMatch(l -> l.strip().startsWith("0 ")), checkpoints::toString);

        CliProcess.Result deleted = cli.run("models", "delete", id);
        assertEquals(0, deleted.code(), deleted::toString);
        CliProcess.Result again = cli.run("models", "list");
        assertTrue(!again.out().contains("crucible:///cli-team/demo/listed"), again::toString);
    }

    @Test
    void anSftJobIsFollowedToItsCheckpointWhichDownloadsAsAPeftArchive() throws IOException {
        String model = createModel("sft");
        Path chats = Files.writeString(dir.resolve("chats.jsonl"), CHATS);
        CliProcess.Result trained = cli.run("train", "sft", "--model", model, "--data", chats.toString(),
                "--config", "batch_size=2", "--config", "learning_rate=1e-3", "--follow", "--interval-ms", "100");
        assertEquals(0, trained.code(), trained::toString);
        assertTrue(UUID.matcher(trained.out().lines().findFirst().orElseThrow()).matches(), trained::toString);
        List<String> lines = trained.out().lines().toList();
        String started = lines.stream().filter(l -> l.startsWith("training started: ")).findFirst().orElseThrow();
        assertTrue(started.matches("training started: 1 gradient step\\(s\\), [1-9][0-9]* trainable tokens"),
                trained::toString);
        assertTrue(lines.indexOf("status COMPLETED") > lines.indexOf(lines.stream()
                .filter(l -> l.startsWith("step 1/1  loss ")).findFirst().orElseThrow()), trained::toString);
        assertTrue(trained.out().contains("completed: step 1"), trained::toString);

        Path zip = dir.resolve("step1.zip");
        CliProcess.Result download = cli.run("checkpoints", "download", model, "1", "-o", zip.toString());
        assertEquals(0, download.code(), download::toString);
        try (ZipFile archive = new ZipFile(zip.toFile())) {
            assertTrue(archive.stream().anyMatch(e -> e.getName().endsWith("adapter_config.json")));
            assertTrue(archive.stream().anyMatch(e -> e.getName().endsWith("adapter_model.safetensors")));
        }
        String job = trained.out().lines().findFirst().orElseThrow();
        CliProcess.Result jobs = cli.run("jobs", "list");
        assertEquals(0, jobs.code(), jobs::toString);
        assertTrue(jobs.out().lines().anyMatch(l -> l.startsWith(job) && l.contains("COMPLETED")), jobs::toString);

        CliProcess.Result deleted = cli.run("checkpoints", "delete", model, "--steps", "0");
        assertEquals(0, deleted.code(), deleted::toString);
        assertEquals("deleted 1 checkpoint(s)", deleted.out().strip(), deleted::toString);
    }

    @Test
    void anRlJobFromAGroupsFileReportsTheRewardOfItsCheckpoint() throws IOException {
        String model = createModel("rl");
        String group = "{\"trajectories\":["
                + trajectory("4", 1.0) + "," + trajectory("5", 0.0) + "]}";
        Path groups = Files.writeString(dir.resolve("groups.jsonl"), group + "\n" + group + "\n");
        CliProcess.Result trained = cli.run("train", "rl", "--model", model, "--groups", groups.toString(),
                "--config", "allow_training_without_logprobs=true", "--config", "learning_rate=1e-4", "--follow",
                "--interval-ms", "100");
        assertEquals(0, trained.code(), trained::toString);
        assertTrue(trained.out().contains("completed: step 1  train/reward 0.5000"), trained::toString);
    }

    private static String trajectory(String answer, double reward) {
        return "{\"messages_and_choices\":[{\"role\":\"user\",\"content\":\"2+2?\"},{\"finish_reason\":\"stop\","
                + "\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"" + answer + "\"}}],\"reward\":"
                + reward + "}";
    }

    @Test
    void aJobThatFailsExitsWithOne() throws IOException {
        String model = createModel("failing");
        Path chats = Files.writeString(dir.resolve("bad.jsonl"), "{\"messages\":[]}\n");
        CliProcess.Result trained = cli.run("train", "sft", "--model", model, "--data", chats.toString(),
                "--follow", "--interval-ms", "100");
        assertEquals(ExitCodes.JOB_FAILED, trained.code(), trained::toString);
        assertTrue(trained.out().contains("failed"), trained::toString);
    }

    /** Each input line is a turn of one conversation: the answers are the greedy answers the API gives. */
    @Test
    void chatStreamsAnAnswerPerLineOfInputKeepingTheConversation() {
        CliProcess.Result chat = process.run("Hello\nAnd again\n", "chat", TestServer.BASE_MODEL, "--system", "Be brief",
                "--max-tokens", "5", "--temperature", "0");
        assertEquals(0, chat.code(), chat::toString);

        Api api = server.api(key);
        List<Map<String, Object>> messages = new ArrayList<>(List.of(
                Map.of("role", "system", "content", "Be brief"), Map.of("role", "user", "content", "Hello")));
        String first = greedy(api, messages);
        messages.add(Map.of("role", "assistant", "content", first));
        messages.add(Map.of("role", "user", "content", "And again"));
        String second = greedy(api, messages);
        assertEquals(first + "\n" + second + "\n", chat.out(), chat::toString);
    }

    private static String greedy(Api api, List<Map<String, Object>> messages) {
        Api.Reply reply = api.post("/v1/chat/completions", Map.of("model", TestServer.BASE_MODEL,
                "messages", messages, "max_tokens", 5, "temperature", 0));
        assertEquals(200, reply.status(), () -> String.valueOf(reply.body()));
        @SuppressWarnings("unchecked")
        Map<String, Object> message = (Map<String, Object>) reply.firstChoice().get("message");
        return (String) message.get("content");
    }

    @Test
    void usageAddsUpThisEntitysCompletionsByProject() {
        String usageKey = server.newKey("cli-usage");
        Api api = server.api(usageKey).withHeader("Compat-Project", "cli-usage/reports");
        long input = 0;
        long output = 0;
        for (int i = 0; i < 3; i++) {
            Api.Reply reply = api.post("/v1/chat/completions", Map.of("model", TestServer.BASE_MODEL,
                    "messages", List.of(Map.of("role", "user", "content", "Count " + i)), "max_tokens", 2 + i));
            assertEquals(200, reply.status(), () -> String.valueOf(reply.body()));
            Map<?, ?> usage = (Map<?, ?>) reply.json().get("usage");
            input += ((Number) usage.get("prompt_tokens")).longValue();
            output += ((Number) usage.get("completion_tokens")).longValue();
        }
        String total = "total: " + input + " input tokens, " + output + " output tokens";
        CliInThisJvm usageCli = new CliInThisJvm(server.url(), usageKey);
        // usage is written just after each answer, so the last one may take a moment to show
        CliProcess.Result shown = Await.until(() -> usageCli.run("usage", "--days", "1"),
                r -> r.out().contains(total), Duration.ofSeconds(20));
        assertEquals(0, shown.code(), shown::toString);
        assertTrue(shown.out().contains("cli-usage/reports"), shown::toString);
        CliProcess.Result other = usageCli.run("usage", "--project", "cli-usage/elsewhere");
        assertTrue(other.out().contains("total: 0 input tokens, 0 output tokens"), other::toString);
        CliProcess.Result noDays = usageCli.run("usage", "--days", "0");
        assertEquals(ExitCodes.USAGE, noDays.code(), noDays::toString);
        assertTrue(noDays.err().contains("--days must be at least 1, got 0"), noDays::toString);
        CliProcess.Result bad = usageCli.run("usage", "--bucket", "2h");
        assertEquals(ExitCodes.API_ERROR, bad.code(), bad::toString);
        assertTrue(bad.err().contains("bucket_width"), bad::toString);
    }

    @Test
    void filesUploadPrintsTheFileId() throws IOException {
        Path chats = Files.writeString(dir.resolve("upload.jsonl"), CHATS);
        CliProcess.Result uploaded = cli.run("files", "upload", chats.toString());
        assertEquals(0, uploaded.code(), uploaded::toString);
        assertTrue(uploaded.out().strip().startsWith("file-"), uploaded::toString);
    }

    @Test
    void aRefusalExitsWithThreeAndTheServersMessage() {
        CliProcess.Result shown = cli.run("jobs", "show", "not-a-job");
        assertEquals(ExitCodes.API_ERROR, shown.code(), shown::toString);
        assertTrue(shown.err().contains("the server answered 400: "), shown::toString);
        assertTrue(shown.err().contains("training_job_id"), shown::toString);
    }

    @Test
    void noKeyIsAUsageErrorAndAnUnreachableServerAnIoError() {
        CliProcess.Result noKey = new CliProcess(Map.of("CRUCIBLE_BASE_URL", server.url())).run("", "models", "list");
        assertEquals(ExitCodes.USAGE, noKey.code(), noKey::toString);
        assertTrue(noKey.err().contains("CRUCIBLE_API_KEY"), noKey::toString);

        CliProcess.Result down = cli.run("models", "list", "--base-url", "http://127.0.0.1:9");
        assertEquals(ExitCodes.IO_ERROR, down.code(), down::toString);
        assertTrue(down.err().contains("cannot reach http://127.0.0.1:9"), down::toString);
    }

    /** On a real terminal (tmux), {@code jobs follow} draws a progress bar that ends full. */
    @Test
    void followOnATerminalDrawsAProgressBar() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/tmux")), "tmux is not installed");
        String model = createModel("tty");
        Path chats = Files.writeString(dir.resolve("tty.jsonl"), CHATS + CHATS);
        CliProcess.Result started = cli.run("train", "sft", "--model", model, "--data", chats.toString(),
                "--config", "batch_size=2");
        assertEquals(0, started.code(), started::toString);
        String job = started.out().strip();
        Path script = dir.resolve("follow.sh");
        Files.writeString(script, "export CRUCIBLE_BASE_URL='" + server.url() + "' CRUCIBLE_API_KEY='" + key + "'\n"
                + String.join(" ", CliProcess.command("jobs", "follow", job).stream().map(a -> "'" + a + "'")
                        .toList()) + "\necho \"EXIT=$?\"\nsleep 60\n");
        String session = "crucible-cli-" + ProcessHandle.current().pid();
        tmux("new-session", "-d", "-s", session, "-x", "160", "-y", "12", "bash " + script);
        try {
            String pane = "";
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (!pane.contains("EXIT=") && System.nanoTime() < deadline) {
                Thread.sleep(250);
                pane = tmux("capture-pane", "-p", "-t", session);
            }
            assertTrue(pane.contains("EXIT=0"), pane);
            Matcher bar = Pattern.compile("training\\s+100% .*2/2").matcher(pane);
            assertTrue(bar.find(), pane);
            assertTrue(pane.contains("completed: step 1"), pane);
        } finally {
            tmux("kill-session", "-t", session);
        }
    }

    private static String tmux(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("tmux"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return out;
    }
}

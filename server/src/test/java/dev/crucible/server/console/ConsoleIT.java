package dev.crucible.server.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.crucible.application.completion.StoredCompletionWriter;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web console in a real browser: Debian's headless Chromium driven through its chromedriver (Selenium). Signs
 * in with a key, follows a training job until its charts draw points, chats, and sees only its own tenant.
 * Screenshots go to {@code target/console/}. Skipped where Chromium or its driver is not installed ({@code .ci/run}
 * installs both).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleIT {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SHOTS = Path.of("target", "console");

    private TestServer server;
    private WebDriver browser;
    private WebDriverWait wait;
    private Api api;
    private String key;

    @BeforeAll
    void start() throws IOException {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER),
                "Chromium and chromium-driver are not installed");
        server = TestServer.start(Map.of());
        key = server.newKey("console-team");
        api = server.api(key);
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile()).build();
        browser = new ChromeDriver(service, options);
        wait = new WebDriverWait(browser, Duration.ofSeconds(60));
        Files.createDirectories(SHOTS);
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (server != null) {
            server.close();
        }
    }

    /** Waits for {@code condition}; on a timeout the failure shows the page as the browser has it. */
    private <T> T await(java.util.function.Function<WebDriver, T> condition) {
        try {
            return wait.until(condition);
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError(e.getMessage() + "\n--- page\n" + browser.getPageSource(), e);
        }
    }

    /** The console signed out: the tab's session storage is shared by the tests, so each starts by clearing it. */
    private void signedOut() {
        browser.get(server.url() + "/console");
        script("sessionStorage.clear()");
        browser.navigate().refresh();
    }

    private void signIn() {
        signedOut();
        WebElement field = await(ExpectedConditions.visibilityOfElementLocated(By.id("key")));
        field.sendKeys(key);
        browser.findElement(By.cssSelector("#login-form button")).click();
        await(ExpectedConditions.visibilityOfElementLocated(By.id("models")));
    }

    private void shoot(String name) throws IOException {
        Files.write(SHOTS.resolve(name + ".png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
    }

    private Object script(String code, Object... args) {
        return ((JavascriptExecutor) browser).executeScript(code, args);
    }

    @Test
    void aWrongKeyIsRefusedAndTheKeyLivesOnlyInSessionStorage() {
        signedOut();
        await(ExpectedConditions.visibilityOfElementLocated(By.id("key"))).sendKeys("crk_wrong");
        browser.findElement(By.cssSelector("#login-form button")).click();
        await(ExpectedConditions.textToBePresentInElementLocated(By.id("login-error"), "not accepted"));
        assertTrue(browser.findElement(By.id("login")).isDisplayed());

        signIn();
        assertEquals(key, script("return sessionStorage.getItem('crucible.key')"));
        assertEquals(0L, script("return localStorage.length"));
        assertEquals("", script("return document.cookie"));
    }

    @Test
    void aTrainingJobIsFollowedUntilItsChartsDrawPoints() throws IOException {
        String modelId = api.post("/v1/preview/models", RequestBodies.createModel("demo", "charted")).text("id");
        String chats = "{\"messages\":[{\"role\":\"user\",\"content\":\"Say hi\"},{\"role\":\"assistant\",\"content\":\"hi\"}]}\n"
                .repeat(6);
        String fileId = (String) api.upload("/v1/files", Map.of("purpose", "fine-tune"), "chats.jsonl",
                chats.getBytes()).json().get("id");
        Api.Reply job = api.post("/v1/preview/sft-training-jobs", Map.of("model_id", modelId,
                "training_data_url", fileId, "config", Map.of("batch_size", 2, "learning_rate", 1e-3)));
        assertEquals(200, job.status(), job.toString());
        String jobId = job.text("id");

        signIn();
        browser.get(server.url() + "/console/index.html#jobs/" + jobId);
        await(ExpectedConditions.textToBePresentInElementLocated(By.id("job-progress"), "3 / 3 gradient steps"));
        await(ExpectedConditions.textToBePresentInElementLocated(By.id("job-status"), "COMPLETED"));
        long drawn = (Long) script("""
                const canvas = document.querySelector('#loss-chart canvas');
                if (!canvas) return 0;
                const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
                let painted = 0;
                for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) painted++;
                return painted;""");
        assertTrue(drawn > 100, "the loss chart's canvas is blank: " + drawn + " painted pixels");
        await(ExpectedConditions.textToBePresentInElementLocated(By.id("job-table"), "COMPLETED"));
        assertTrue(browser.findElement(By.id("job-table")).getText().contains(jobId));
        assertTrue(browser.findElement(By.id("job-events")).getText().contains("training_ended"));
        shoot("job");

        browser.get(server.url() + "/console/index.html#models/" + modelId);
        await(ExpectedConditions.textToBePresentInElementLocated(By.id("model-title"), "console-team/demo/charted"));
        await(d -> d.findElements(By.cssSelector("#checkpoint-table tbody tr")).size() == 2);
        shoot("model");
    }

    @Test
    void theChatPlaygroundStreamsAnAnswer() throws IOException {
        signIn();
        browser.get(server.url() + "/console/index.html#chat");
        await(d -> !d.findElements(By.cssSelector("#chat-model option")).isEmpty());
        browser.findElement(By.id("chat-input")).sendKeys("Hello there");
        browser.findElement(By.cssSelector("#chat-form button")).click();
        await(d -> !d.findElements(By.cssSelector("#chat-log .assistant")).isEmpty()
                && !d.findElement(By.cssSelector("#chat-log .assistant")).getText().isEmpty());
        assertEquals("", browser.findElement(By.id("chat-error")).getText());
        shoot("chat");
    }

    @Test
    void aProjectsFeedbackIsListed() {
        String ref = "weave:///console-team/demo/object/answer:abc123";
        Api.Reply created = api.post("/feedback/create", new java.util.HashMap<>(Map.of("project_id",
                "console-team/demo", "weave_ref", ref, "feedback_type", "custom", "payload", Map.of("score", 0.75))));
        assertEquals(200, created.status(), created.toString());
        signIn();
        browser.get(server.url() + "/console/index.html#feedback");
        await(ExpectedConditions.visibilityOfElementLocated(By.id("feedback-project"))).sendKeys("console-team/demo");
        browser.findElement(By.cssSelector("#feedback-form button")).click();
        await(ExpectedConditions.textToBePresentInElementLocated(By.id("feedback-table"), ref));
        String table = browser.findElement(By.id("feedback-table")).getText();
        assertTrue(table.contains("custom") && table.contains("\"score\":0.75"), table);
        assertEquals("", browser.findElement(By.id("feedback-error")).getText());
    }

    @Test
    void storedCompletionsShowTheirFeedbackAndBuildADataset() throws Exception {
        Api weave = server.api(null).withBasic(key);
        String liked = null;
        for (String question : List.of("Tell me a joke", "Name a colour")) {
            Api.Reply chat = api.post("/v1/chat/completions", RequestBodies.chat(question, "store", true,
                    "metadata", Map.of("shown", "console"), "max_tokens", 4));
            assertEquals(200, chat.status(), chat.toString());
            liked = liked == null ? chat.text("id") : liked;
        }
        String ref = "weave:///console-team/default/call/" + liked;
        Api.Reply rated = weave.post("/feedback/create", RequestBodies.feedback("console-team/default", "rating",
                Map.of("score", 5), "weave_ref", ref));
        assertEquals(200, rated.status(), rated.toString());
        server.bean(StoredCompletionWriter.class).flushed().get(30, TimeUnit.SECONDS);

        signIn();
        browser.get(server.url() + "/console/index.html#completions");
        await(ExpectedConditions.visibilityOfElementLocated(By.id("completion-project"))).sendKeys("console-team/default");
        browser.findElement(By.id("completion-metadata")).sendKeys("shown=console");
        browser.findElement(By.cssSelector("#completion-form button")).click();
        await(d -> d.findElements(By.cssSelector("#completion-table tbody tr")).size() == 2);
        String completionId = liked;
        browser.findElements(By.cssSelector("#completion-table tbody tr")).get(1).click();
        await(ExpectedConditions.textToBePresentInElementLocated(By.id("completion-title"), completionId));
        await(ExpectedConditions.textToBePresentInElementLocated(By.id("completion-messages"), "Tell me a joke"));
        await(ExpectedConditions.textToBePresentInElementLocated(By.id("completion-feedback"), "\"score\":5"));

        browser.findElement(By.id("dataset-name")).sendKeys("liked answers");
        browser.findElement(By.id("dataset-feedback-type")).sendKeys("rating");
        browser.findElement(By.id("dataset-payload-path")).sendKeys("score");
        browser.findElement(By.id("dataset-min")).sendKeys("4");
        browser.findElement(By.cssSelector("#dataset-form button")).click();
        await(ExpectedConditions.textToBePresentInElementLocated(By.id("dataset-result"), "1 rows"));
        await(ExpectedConditions.textToBePresentInElementLocated(By.id("dataset-table"), "liked answers"));
        assertEquals("", browser.findElement(By.id("completion-error")).getText());
        browser.findElement(By.cssSelector("#dataset-table tbody tr")).click();
        await(ExpectedConditions.textToBePresentInElementLocated(By.id("dataset-preview"), "Tell me a joke"));
        shoot("completions");
    }

    @Test
    void usageIsShownPerProject() throws IOException {
        Api.Reply chat = api.withHeader("Compat-Project", "console-team/usage-shown").post("/v1/chat/completions",
                RequestBodies.chat("Hello", "max_tokens", 3));
        assertEquals(200, chat.status(), chat.toString());
        // usage is written just after the answer: wait until the API has it, then look
        long start = java.time.Instant.now().getEpochSecond() - 3600;
        Await.until(() -> api.get("/v1/organization/usage/completions?group_by=project_id&start_time=" + start),
                reply -> reply.toString().contains("console-team/usage-shown"), java.time.Duration.ofSeconds(20));
        signIn();
        browser.get(server.url() + "/console/index.html#usage");
        await(ExpectedConditions.textToBePresentInElementLocated(By.id("usage-table"), "console-team/usage-shown"));
        assertTrue(browser.findElement(By.id("usage-total")).getText().startsWith("Total: "));
        assertEquals("", browser.findElement(By.id("usage-error")).getText());
        shoot("usage");
    }

    @Test
    void theConsoleShowsOnlyTheKeysTenant() {
        Api other = server.api(server.newKey("someone-else"));
        other.post("/v1/preview/models", RequestBodies.createModel("secret", "hidden"));
        api.post("/v1/preview/models", RequestBodies.createModel("demo", "visible"));
        signIn();
        browser.get(server.url() + "/console/index.html#models");
        await(ExpectedConditions.textToBePresentInElementLocated(By.id("model-table"), "console-team/demo/visible"));
        String table = browser.findElement(By.id("model-table")).getText();
        assertFalse(table.contains("hidden") || table.contains("someone-else"), table);
    }

    @Test
    void thePageAllowsOnlyThisServersScriptsAndServesNoOtherFile() {
        Api.Bytes page = server.api("none").download("/console/index.html");
        assertEquals(200, page.status());
        String policy = page.headers().get("content-security-policy").getFirst();
        assertTrue(policy.contains("script-src 'self'") && policy.contains("connect-src 'self'"), policy);
        for (String path : List.of("/console/../application.yml", "/console/logback.xml", "/console/%2e%2e%2fapplication.yml")) {
            assertEquals(404, server.api("none").download(path).status(), path);
        }
    }
}

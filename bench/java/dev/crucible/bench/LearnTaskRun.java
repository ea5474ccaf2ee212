package dev.crucible.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code bench/learn-task}'s second part, through Crucible's public API only: creates a trainable model on the served
 * base, measures held-out greedy exact-match accuracy (chat completions at temperature 0) of the base, then runs an
 * SFT job on an uploaded JSONL file, then RL steps (per step: {@code n} answers per problem sampled from the latest
 * checkpoint, each scored 1 or 0 by exact match, sent as ART trajectory groups to a training job), measuring the
 * accuracy after SFT and after every RL step. Writes the curves as JSON and PNG and prints the summary line.
 *
 * <p>Usage: {@code LearnTaskRun <base url> <api key> <entity> <results prefix> <seed> <digits> <held-out> <sft
 * examples> <sft batch> <sft learning rate> <rl steps> <rl problems> <rl group size> <rl learning rate>
 * <start epoch seconds> [rl sampling temperature, default 1] [k of pass@k, 0 for none, default 8] [more RL
 * experimental_config as a JSON object, default {}] [trainable model name, default adder]}
 *
 * <p>Where {@code k > 0} it also samples {@code k} answers per held-out problem (at the RL temperature) after SFT and
 * after the last RL step and prints the share of samples that are right ({@code sample}) and of problems with at
 * least one right sample ({@code pass@k}) beside the greedy accuracy: RL with an exact-answer reward turns pass@k
 * into pass@1, so the gap between pass@k and greedy after SFT is what RL has to gain. These samples are measured,
 * never trained on.
 */
public final class LearnTaskRun {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PARALLEL = 4;
    private static final int MAX_TOKENS = 8;
    /** The control's coin flips ({@code -Dlearn.randomReward=true}: each rollout's reward 1 or 0 at random). */
    private static final Random COIN = new Random(7);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final String base;
    private final String key;

    private LearnTaskRun(String base, String key) {
        this.base = base;
        this.key = key;
    }

    public static void main(String[] args) throws Exception {
        LearnTaskRun run = new LearnTaskRun(args[0], args[1]);
        String entity = args[2];
        String prefix = args[3];
        long seed = Long.parseLong(args[4]);
        AdditionTask task = new AdditionTask(Integer.parseInt(args[5]));
        List<AdditionTask.Problem> heldOut = task.heldOut(Integer.parseInt(args[6]), seed + 1);
        int sftExamples = Integer.parseInt(args[7]);
        int sftBatch = Integer.parseInt(args[8]);
        double sftLearningRate = Double.parseDouble(args[9]);
        int rlSteps = Integer.parseInt(args[10]);
        int rlProblems = Integer.parseInt(args[11]);
        int group = Integer.parseInt(args[12]);
        double rlLearningRate = Double.parseDouble(args[13]);
        long startEpoch = Long.parseLong(args[14]);
        double temperature = args.length > 15 ? Double.parseDouble(args[15]) : 1.0;
        int passK = args.length > 16 ? Integer.parseInt(args[16]) : 8;
        ObjectNode rlConfig = (ObjectNode) JSON.readTree(args.length > 17 ? args[17] : "{}");
        rlConfig.put("learning_rate", rlLearningRate);
        String name = args.length > 18 ? args[18] : "adder";
        // SFT and RL draw from their own seed: other problems than pretraining saw, never a held-out one
        AdditionTask.Source source = task.training(heldOut, seed + 3);

        ObjectNode create = JSON.createObjectNode();
        create.putNull("entity");
        create.put("project", "learn").put("name", name).put("base_model", "adder").put("return_existing", true);
        String modelId = run.post("/v1/preview/models", create).path("id").asText();
        String address = "crucible:///" + entity + "/learn/" + name;

        List<Double> accuracy = new ArrayList<>();
        List<Double> rewards = new ArrayList<>();
        List<Double> stageSeconds = new ArrayList<>();
        long t0 = System.nanoTime();
        accuracy.add(run.accuracy(address, heldOut));
        stageSeconds.add((System.nanoTime() - t0) / 1e9);
        say("pretrained held-out accuracy %.3f", accuracy.getLast());

        StringBuilder lines = new StringBuilder();
        for (AdditionTask.Problem p : source.next(sftExamples)) {
            ObjectNode line = JSON.createObjectNode();
            ArrayNode messages = line.putArray("messages");
            messages.addObject().put("role", "user").put("content", p.prompt());
            messages.addObject().put("role", "assistant").put("content", p.answer());
            lines.append(JSON.writeValueAsString(line)).append('\n');
        }
        String fileId = run.upload("sft.jsonl", lines.toString()).path("id").asText();
        ObjectNode sft = JSON.createObjectNode();
        sft.put("model_id", modelId).put("training_data_url", fileId);
        sft.putObject("config").put("batch_size", sftBatch).put("learning_rate", sftLearningRate);
        run.await(run.post("/v1/preview/sft-training-jobs", sft).path("id").asText());
        accuracy.add(run.accuracy(address, heldOut));
        stageSeconds.add((System.nanoTime() - t0) / 1e9);
        say("SFT (%d examples, batch %d, lr %s) held-out accuracy %.3f", sftExamples, sftBatch, sftLearningRate,
                accuracy.getLast());
        double[] sftPass = run.passAt(address, heldOut, passK, temperature, seed * 1000);

        for (int step = 1; step <= rlSteps; step++) {
            ArrayNode groups = JSON.createArrayNode();
            double reward = run.rollouts(address, source.next(rlProblems), group, temperature, seed * 1000 + step,
                    groups);
            rewards.add(reward);
            ObjectNode job = JSON.createObjectNode();
            job.put("model_id", modelId).set("trajectory_groups", groups);
            job.set("experimental_config", rlConfig);
            run.await(run.post("/v1/preview/training-jobs", job).path("id").asText());
            accuracy.add(run.accuracy(address, heldOut));
            stageSeconds.add((System.nanoTime() - t0) / 1e9);
            say("RL step %d: rollouts' mean reward %.3f, held-out accuracy %.3f (%.0f s)", step, reward,
                    accuracy.getLast(), stageSeconds.getLast());
        }

        double[] rlPass = run.passAt(address, heldOut, passK, temperature, seed * 1000);
        double minutes = (System.currentTimeMillis() / 1000.0 - startEpoch) / 60.0;
        ObjectNode result = JSON.createObjectNode();
        result.put("task", "addition, operands of 1.." + task.maxDigits() + " digits");
        result.put("held_out", heldOut.size()).put("sft_examples", sftExamples).put("sft_batch", sftBatch)
                .put("sft_learning_rate", sftLearningRate).put("rl_steps", rlSteps).put("rl_problems", rlProblems)
                .put("rl_group_size", group).put("rl_learning_rate", rlLearningRate)
                .put("rl_temperature", temperature);
        result.set("rl_experimental_config", rlConfig);
        if (passK > 0) {
            result.put("pass_k", passK);
            result.putArray("sft_sample_pass_k").add(sftPass[0]).add(sftPass[1]);
            result.putArray("rl_sample_pass_k").add(rlPass[0]).add(rlPass[1]);
        }
        ArrayNode acc = result.putArray("accuracy");
        accuracy.forEach(acc::add);
        ArrayNode rew = result.putArray("rl_mean_reward");
        rewards.forEach(rew::add);
        ArrayNode secs = result.putArray("seconds_at_stage");
        stageSeconds.forEach(s -> secs.add(Math.round(s * 10) / 10.0));
        result.put("minutes", Math.round(minutes * 10) / 10.0);
        Files.writeString(Path.of(prefix + ".json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(result));
        LearnTaskPlot.write(Path.of(prefix + ".png"), String.format(Locale.ROOT,
                "learn-task: %d-digit addition, %d held-out problems, SFT %d examples, RL %d x %d x %d",
                task.maxDigits(), heldOut.size(), sftExamples, rlSteps, rlProblems, group), accuracy, rewards);
        double rl = accuracy.getLast();
        System.out.printf(Locale.ROOT, "learn-task: pretrained=%.3f sft=%.3f rl=%.3f minutes=%.1f%n",
                accuracy.get(0), accuracy.get(1), rl, minutes);
    }

    /** Greedy exact-match accuracy of {@code model} on {@code problems}, a few requests at a time. */
    private double accuracy(String model, List<AdditionTask.Problem> problems) throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(PARALLEL)) {
            List<Future<Double>> scores = new ArrayList<>();
            for (AdditionTask.Problem p : problems) {
                scores.add(pool.submit(() -> {
                    JsonNode reply = complete(model, p, 1, 0.0, null);
                    return AdditionTask.reward(p, reply.path("choices").path(0).path("message").path("content")
                            .asText(null));
                }));
            }
            double right = 0;
            for (Future<Double> f : scores) {
                right += f.get();
            }
            return right / problems.size();
        }
    }

    /**
     * The share of {@code k} samples per problem at {@code temperature} that are right and the share of problems with
     * at least one right sample (pass@k), printed beside the greedy accuracy; {@code {NaN, NaN}} where {@code k} is 0.
     */
    private double[] passAt(String model, List<AdditionTask.Problem> problems, int k, double temperature, long seed)
            throws Exception {
        if (k <= 0) {
            return new double[] {Double.NaN, Double.NaN};
        }
        try (ExecutorService pool = Executors.newFixedThreadPool(PARALLEL)) {
            List<Future<JsonNode>> replies = new ArrayList<>();
            for (int i = 0; i < problems.size(); i++) {
                AdditionTask.Problem p = problems.get(i);
                long s = seed + i;
                replies.add(pool.submit(() -> complete(model, p, k, temperature, s)));
            }
            double right = 0;
            double solved = 0;
            for (int i = 0; i < problems.size(); i++) {
                double any = 0;
                for (JsonNode choice : replies.get(i).get().path("choices")) {
                    double r = AdditionTask.reward(problems.get(i), choice.path("message").path("content")
                            .asText(null));
                    right += r;
                    any = Math.max(any, r);
                }
                solved += any;
            }
            double[] out = {right / (problems.size() * (double) k), solved / problems.size()};
            say("held-out samples at temperature %s: %.3f right, pass@%d %.3f", temperature, out[0], k, out[1]);
            return out;
        }
    }

    /**
     * Samples {@code group} answers per problem at {@code temperature}, adds one ART trajectory group per problem to
     * {@code groups} and returns the mean reward.
     */
    private double rollouts(String model, List<AdditionTask.Problem> problems, int group, double temperature,
            long seed, ArrayNode groups) throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(PARALLEL)) {
            List<Future<JsonNode>> replies = new ArrayList<>();
            for (int i = 0; i < problems.size(); i++) {
                AdditionTask.Problem p = problems.get(i);
                long s = seed * 1000 + i;
                replies.add(pool.submit(() -> complete(model, p, group, temperature, s)));
            }
            double total = 0;
            int count = 0;
            for (int i = 0; i < problems.size(); i++) {
                AdditionTask.Problem p = problems.get(i);
                ArrayNode trajectories = groups.addObject().putArray("trajectories");
                for (JsonNode choice : replies.get(i).get().path("choices")) {
                    double reward = Boolean.getBoolean("learn.randomReward") ? (COIN.nextBoolean() ? 1.0 : 0.0)
                            : AdditionTask.reward(p, choice.path("message").path("content").asText(null));
                    ObjectNode t = trajectories.addObject();
                    ArrayNode turns = t.putArray("messages_and_choices");
                    turns.addObject().put("role", "user").put("content", p.prompt());
                    turns.add(choice);
                    t.put("reward", reward);
                    total += reward;
                    count++;
                }
            }
            return total / count;
        }
    }

    private JsonNode complete(String model, AdditionTask.Problem p, int n, double temperature, Long seed)
            throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", model).put("max_tokens", MAX_TOKENS).put("temperature", temperature).put("n", n);
        if (seed != null) {
            body.put("seed", seed);
        }
        body.putArray("messages").addObject().put("role", "user").put("content", p.prompt());
        return post("/v1/chat/completions", body);
    }

    /** Polls the job until it ends; a failed or cancelled job stops the bench. */
    private void await(String job) throws IOException, InterruptedException {
        while (true) {
            JsonNode status = get("/v1/preview/training-jobs/" + job);
            String s = status.path("status").asText();
            if (s.equals("COMPLETED")) {
                return;
            }
            if (s.equals("FAILED") || s.equals("CANCELLED")) {
                throw new IllegalStateException("training job " + job + " ended " + s + ": " + status);
            }
            Thread.sleep(500);
        }
    }

    private JsonNode upload(String name, String content) throws IOException, InterruptedException {
        String boundary = "learn-task-" + System.nanoTime();
        String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nfine-tune\r\n"
                + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + name
                + "\"\r\nContent-Type: application/jsonl\r\n\r\n" + content + "\r\n--" + boundary + "--\r\n";
        return send(HttpRequest.newBuilder(URI.create(base + "/v1/files"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)));
    }

    private JsonNode post(String path, JsonNode body) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))));
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    private JsonNode send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<String> reply = http.send(request.header("Authorization", "Bearer " + key)
                .timeout(Duration.ofMinutes(5)).build(), HttpResponse.BodyHandlers.ofString());
        if (reply.statusCode() / 100 != 2) {
            throw new IllegalStateException(reply.request().method() + " " + reply.request().uri() + ": "
                    + reply.statusCode() + " " + reply.body());
        }
        return JSON.readTree(reply.body());
    }

    private static void say(String format, Object... args) {
        System.err.println("learn-task: " + String.format(Locale.ROOT, format, args));
    }
}

package dev.crucible.adapters.http.inference;

import dev.crucible.application.inference.chat.ChatRequest;
import dev.crucible.runtime.generation.Finish;
import dev.crucible.runtime.generation.FinishReason;
import dev.crucible.runtime.generation.GenerationResult;
import dev.crucible.runtime.generation.PositionLogprobs;
import dev.crucible.runtime.generation.PromptLogprobs;
import dev.crucible.runtime.generation.RankedLogprob;
import dev.crucible.runtime.generation.SequenceOutput;
import dev.crucible.runtime.generation.StopReason;
import dev.crucible.runtime.generation.TokenLogprob;
import dev.crucible.runtime.tools.ToolCall;
import dev.crucible.runtime.tools.ToolCallDelta;
import dev.crucible.runtime.tools.ToolCallOutput;
import dev.crucible.runtime.tools.ToolCalling;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Chat-completion response bodies in vLLM's shape (null fields written, as vLLM's {@code model_dump()} does). */
final class ChatResponses {

    /** vLLM's lower bound for a logprob on the wire. */
    static final double MIN_LOGPROB = -9999.0;

    private ChatResponses() {
    }

    static Map<String, Object> completion(String id, long created, String model, ChatRequest request, int[] promptIds,
            GenerationResult result, Optional<ToolCalling> toolCalling) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", id);
        body.put("object", "chat.completion");
        body.put("created", created);
        body.put("model", model);
        List<Map<String, Object>> choices = new ArrayList<>();
        for (SequenceOutput sequence : result.sequences()) {
            Map<String, Object> choice = new LinkedHashMap<>();
            choice.put("index", sequence.index());
            ToolCallOutput tools = toolCalling.map(t -> t.extract(sequence.text()))
                    .orElseGet(() -> new ToolCallOutput(Optional.of(sequence.text()), List.of()));
            choice.put("message", message(request, tools));
            choice.put("logprobs", request.logprobs().logprobs() ? logprobs(sequence.logprobs(), asIds(request)) : null);
            FinishReason reason = sequence.finish().reason();
            choice.put("finish_reason", toolCalling.map(t -> t.finishReason(reason, tools.called(), false))
                    .orElse(reason.wireName()));
            choice.put("stop_reason", stopReason(sequence.finish()));
            choice.put("token_ids", returnTokenIds(request) ? sequence.tokenIds() : null);
            choices.add(choice);
        }
        body.put("choices", choices);
        body.put("service_tier", null);
        body.put("system_fingerprint", null);
        body.put("usage", usage(result.promptTokens(), result.completionTokens()));
        body.put("prompt_logprobs", result.promptLogprobs().map(ChatResponses::promptLogprobs).orElse(null));
        body.put("prompt_token_ids", returnTokenIds(request) ? ints(promptIds) : null);
        body.put("kv_transfer_params", null);
        return body;
    }

    /**
     * The message of a finished choice. Content is null only when tool calls left no text and echo is off (vLLM's
     * echo writes {@code last + (content or "")}).
     */
    static Map<String, Object> message(ChatRequest request, ToolCallOutput output) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("role", "assistant");
        String content = output.content().orElse(null);
        message.put("content", request.output().echo() ? echoed(request) + (content == null ? "" : content) : content);
        message.put("refusal", null);
        message.put("annotations", null);
        message.put("audio", null);
        message.put("function_call", null);
        message.put("tool_calls", output.calls().stream().map(ChatResponses::toolCall).toList());
        message.put("reasoning", null);
        return message;
    }

    private static Map<String, Object> toolCall(ToolCall call) {
        Map<String, Object> function = new LinkedHashMap<>();
        function.put("name", call.name());
        function.put("arguments", call.arguments());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", call.id());
        out.put("type", "function");
        out.put("function", function);
        return out;
    }

    /** A streamed tool-call piece: id, type and name on a call's first piece, then argument text. */
    static Map<String, Object> toolCallDelta(ToolCallDelta delta) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("index", delta.index());
        Map<String, Object> function = new LinkedHashMap<>();
        delta.id().ifPresent(id -> {
            out.put("id", id);
            out.put("type", "function");
        });
        delta.name().ifPresent(name -> function.put("name", name));
        function.put("arguments", delta.arguments());
        out.put("function", function);
        return out;
    }

    /**
     * vLLM's {@code prompt_logprobs}: null for the first prompt token, then per token a map from token id (a string)
     * to {@code {logprob, rank, decoded_token}}, the actual token first; logprobs clamped to -9999.
     */
    static List<Object> promptLogprobs(List<PromptLogprobs> positions) {
        List<Object> out = new ArrayList<>(positions.size() + 1);
        out.add(null);
        for (PromptLogprobs position : positions) {
            Map<String, Object> entries = new LinkedHashMap<>();
            for (RankedLogprob entry : position.entries()) {
                Map<String, Object> value = new LinkedHashMap<>();
                value.put("logprob", Math.max(MIN_LOGPROB, entry.token().logprob()));
                value.put("rank", entry.rank());
                value.put("decoded_token", entry.token().token());
                entries.put(String.valueOf(entry.token().tokenId()), value);
            }
            out.add(entries);
        }
        return out;
    }

    /** With {@code echo}, the new message starts with the last message's content when both are the assistant's. */
    static String echoed(ChatRequest request) {
        if (!request.output().echo() || request.messages().isEmpty()) {
            return "";
        }
        Map<String, Object> last = request.messages().getLast();
        return "assistant".equals(last.get("role")) && last.get("content") instanceof String content ? content : "";
    }

    static Map<String, Object> logprobs(List<PositionLogprobs> positions, boolean asIds) {
        List<Map<String, Object>> content = new ArrayList<>();
        for (PositionLogprobs position : positions) {
            Map<String, Object> entry = token(position.sampled(), asIds);
            List<Map<String, Object>> top = new ArrayList<>();
            position.top().forEach(t -> top.add(token(t, asIds)));
            entry.put("top_logprobs", top);
            content.add(entry);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("content", content);
        out.put("refusal", null);
        return out;
    }

    private static Map<String, Object> token(TokenLogprob t, boolean asIds) {
        Map<String, Object> entry = new LinkedHashMap<>();
        String text = asIds ? "token_id:" + t.tokenId() : t.token();
        entry.put("token", text);
        entry.put("logprob", Math.max(MIN_LOGPROB, t.logprob()));
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        List<Integer> values = new ArrayList<>(bytes.length);
        for (byte b : bytes) {
            values.add(b & 0xff);
        }
        entry.put("bytes", values);
        return entry;
    }

    static Object stopReason(Finish finish) {
        return finish.stopReason().map(reason -> switch (reason) {
            case StopReason.TokenId id -> (Object) id.tokenId();
            case StopReason.StopString s -> s.stop();
            case StopReason.RepetitionDetected r -> null;
        }).orElse(null);
    }

    static Map<String, Object> usage(int promptTokens, int completionTokens) {
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("prompt_tokens", promptTokens);
        usage.put("total_tokens", promptTokens + completionTokens);
        usage.put("completion_tokens", completionTokens);
        usage.put("prompt_tokens_details", null);
        return usage;
    }

    static boolean asIds(ChatRequest request) {
        return request.logprobs().returnTokensAsTokenIds().orElse(false);
    }

    static boolean returnTokenIds(ChatRequest request) {
        return request.logprobs().returnTokenIds().orElse(false);
    }

    static List<Integer> ints(int[] ids) {
        List<Integer> out = new ArrayList<>(ids.length);
        for (int id : ids) {
            out.add(id);
        }
        return out;
    }
}

package dev.crucible.adapters.http.inference;

import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.application.inference.chat.answer.ChatChoice;
import dev.crucible.application.inference.chat.answer.ChatCompletion;
import dev.crucible.application.inference.chat.answer.ChatFinish;
import dev.crucible.application.inference.chat.answer.ChatLogprob;
import dev.crucible.application.inference.chat.answer.ChatPositionLogprobs;
import dev.crucible.application.inference.chat.answer.ChatRankedLogprob;
import dev.crucible.application.inference.chat.answer.ChatToolCall;
import dev.crucible.application.inference.chat.answer.ChatToolCallDelta;
import dev.crucible.application.inference.chat.answer.ChatUsage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Chat-completion response bodies in vLLM's shape (null fields written, as vLLM's {@code model_dump()} does). */
final class ChatResponses {

    /** vLLM's lower bound for a logprob on the wire. */
    static final double MIN_LOGPROB = -9999.0;

    private ChatResponses() {
    }

    static Map<String, Object> completion(String id, long created, ChatCompletion completion) {
        ChatRequest request = completion.start().request();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", id);
        body.put("object", "chat.completion");
        body.put("created", created);
        body.put("model", completion.start().model());
        List<Map<String, Object>> choices = new ArrayList<>();
        for (ChatChoice finished : completion.choices()) {
            Map<String, Object> choice = new LinkedHashMap<>();
            choice.put("index", finished.index());
            choice.put("message", message(request, finished));
            choice.put("logprobs", request.logprobs().logprobs() ? logprobs(finished.logprobs(), asIds(request)) : null);
            choice.put("finish_reason", finished.finish().reason());
            choice.put("stop_reason", stopReason(finished.finish()));
            choice.put("token_ids", returnTokenIds(request) ? finished.tokenIds() : null);
            choices.add(choice);
        }
        body.put("choices", choices);
        body.put("service_tier", null);
        body.put("system_fingerprint", null);
        body.put("usage", usage(completion.usage()));
        body.put("prompt_logprobs", completion.promptLogprobs().map(ChatResponses::promptLogprobs).orElse(null));
        body.put("prompt_token_ids", returnTokenIds(request) ? completion.start().promptTokenIds() : null);
        body.put("kv_transfer_params", null);
        return body;
    }

    /**
     * The message of a finished choice. Content is null only when tool calls left no text and echo is off (vLLM's
     * echo writes {@code last + (content or "")}).
     */
    static Map<String, Object> message(ChatRequest request, ChatChoice output) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("role", "assistant");
        String content = output.content().orElse(null);
        message.put("content", request.output().echo() ? echoed(request) + (content == null ? "" : content) : content);
        message.put("refusal", null);
        message.put("annotations", null);
        message.put("audio", null);
        message.put("function_call", null);
        message.put("tool_calls", output.toolCalls().stream().map(ChatResponses::toolCall).toList());
        message.put("reasoning", null);
        return message;
    }

    private static Map<String, Object> toolCall(ChatToolCall call) {
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
    static Map<String, Object> toolCallDelta(ChatToolCallDelta delta) {
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
    static List<Object> promptLogprobs(List<List<ChatRankedLogprob>> positions) {
        List<Object> out = new ArrayList<>(positions.size() + 1);
        out.add(null);
        for (List<ChatRankedLogprob> position : positions) {
            Map<String, Object> entries = new LinkedHashMap<>();
            for (ChatRankedLogprob entry : position) {
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

    static Map<String, Object> logprobs(List<ChatPositionLogprobs> positions, boolean asIds) {
        List<Map<String, Object>> content = new ArrayList<>();
        for (ChatPositionLogprobs position : positions) {
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

    private static Map<String, Object> token(ChatLogprob t, boolean asIds) {
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

    /** vLLM's {@code stop_reason}: the stop token id or string, null otherwise. */
    static Object stopReason(ChatFinish finish) {
        return finish.stopReason().map(reason -> switch (reason) {
            case ChatFinish.StopToken token -> (Object) token.tokenId();
            case ChatFinish.StopString s -> s.stop();
            case ChatFinish.RepetitionDetected r -> "repetition_detected";
        }).orElse(null);
    }

    static Map<String, Object> usage(ChatUsage counted) {
        int promptTokens = counted.promptTokens();
        int completionTokens = counted.completionTokens();
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("prompt_tokens", promptTokens);
        usage.put("total_tokens", promptTokens + completionTokens);
        usage.put("completion_tokens", completionTokens);
        // vLLM's shape with --enable-prompt-tokens-details; null where the count is not known (a delta's running usage)
        usage.put("prompt_tokens_details", counted.cachedTokens().isPresent()
                ? Map.of("cached_tokens", counted.cachedTokens().getAsInt()) : null);
        return usage;
    }

    static boolean asIds(ChatRequest request) {
        return request.logprobs().returnTokensAsTokenIds().orElse(false);
    }

    static boolean returnTokenIds(ChatRequest request) {
        return request.logprobs().returnTokenIds().orElse(false);
    }
}

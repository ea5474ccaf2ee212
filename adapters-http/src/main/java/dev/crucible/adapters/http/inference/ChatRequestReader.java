package dev.crucible.adapters.http.inference;

import dev.crucible.application.inference.chat.ask.ChatLogprobs;
import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.application.inference.chat.ask.ChatServing;
import dev.crucible.application.inference.chat.ask.ChatStreaming;
import dev.crucible.kernel.reading.JsonReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads a chat completion body ({@code vllm-chat.md} §2) into a {@link ChatRequest}, doing every check that does not
 * depend on the model, in vLLM's order (§2.1): the protocol validators on the raw body ({@link ProtocolChecks}),
 * the schema (types, literals, declared ranges: {@link SchemaError} messages as vLLM reports pydantic's), the
 * renderer's tool-choice and template-trust refusals. The sampling ranges are the use case's (checked first there,
 * before the model is resolved), as are the model-dependent checks. Unknown fields are ignored, as vLLM ignores them.
 *
 * <p>Every refusal is a {@code RefusalException} (400) whose {@code param} names the field as Crucible's envelope
 * does ({@code stop[1]}, no {@code body.} prefix); the envelope's error type is unchanged. Stateless and thread-safe.
 */
public final class ChatRequestReader {

    private ChatRequestReader() {
    }

    /** Reads and checks {@code body}; throws {@code RefusalException} with vLLM's message at the first fault. */
    public static ChatRequest read(JsonReader body) {
        ChatFields f = new ChatFields(body.raw(), List.of());
        ProtocolChecks.check(f);
        ChatRequest request = new ChatRequest(f.string("model").filter(m -> !m.isEmpty()), MessagesReader.read(f),
                SamplingReader.read(f), StoppingReader.read(f), logprobs(f), streaming(f), TemplatingReader.read(f),
                ToolsReader.read(f), OutputReader.read(f), serving(f));
        TemplatingReader.trust(request.templating());
        return request;
    }

    private static ChatLogprobs logprobs(ChatFields f) {
        int top = f.integer("top_logprobs").map(Int64::toInt).orElse(0);
        OptionalInt prompt = f.integer("prompt_logprobs").map(p -> OptionalInt.of(Int64.toInt(p)))
                .orElse(OptionalInt.empty());
        return new ChatLogprobs(f.bool("logprobs", false), top, prompt, f.bool("return_tokens_as_token_ids"),
                f.bool("return_token_ids"));
    }

    private static ChatStreaming streaming(ChatFields f) {
        boolean stream = f.bool("stream", false);
        Optional<ChatFields> options = f.child("stream_options");
        return new ChatStreaming(stream, options.map(o -> o.bool("include_usage", false)).orElse(false),
                options.map(o -> o.bool("continuous_usage_stats", false)).orElse(false));
    }

    private static ChatServing serving(ChatFields f) {
        long priority = Int64.read(f, "priority").orElse(0);
        String xargsKey = f.has("engine_xargs") ? "engine_xargs" : "vllm_xargs";
        Map<String, Object> xargs = f.object(xargsKey).orElse(Map.of());
        xargs.forEach((key, value) -> xarg(value, f.loc(xargsKey, key)));
        return new ChatServing(priority, f.string("request_id"), f.string("cache_salt"),
                f.object("kv_transfer_params"), xargs, f.string("user"));
    }

    /** An {@code engine_xargs} value: a string, a number, or a list of them. */
    private static void xarg(Object value, List<Object> at) {
        if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                List<Object> itemAt = new ArrayList<>(at);
                itemAt.add(i);
                xarg(list.get(i), itemAt);
            }
        } else if (!(value instanceof String) && !(value instanceof Number)) {
            throw SchemaError.of(at, "string_type", "Input should be a valid string", value);
        }
    }
}

package dev.crucible.adapters.http.inference;

import dev.crucible.application.inference.chat.ChatTemplating;
import dev.crucible.domain.python.PythonRepr;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads the template fields and applies the renderer's trust rules: Crucible behaves as vLLM without
 * {@code --trust-request-chat-template} (a request template is refused) and without {@code --trust-request-mm-kwargs}
 * (non-empty {@code mm_processor_kwargs} are refused); {@code chat_template_kwargs} may not set {@code tokenize}.
 */
final class TemplatingReader {

    /** vLLM main's {@code reasoning_effort} literals. */
    static final List<String> REASONING_EFFORTS = List.of("none", "minimal", "low", "medium", "high", "xhigh", "max");

    private TemplatingReader() {
    }

    static ChatTemplating read(ChatFields f) {
        Optional<String> effort = f.string("reasoning_effort");
        if (effort.isPresent() && !REASONING_EFFORTS.contains(effort.get())) {
            String expected = expected();
            throw SchemaError.of(f.loc("reasoning_effort"), "literal_error", "Input should be " + expected,
                    effort.get(), SchemaError.ctx("expected", expected));
        }
        Optional<List<Map<String, Object>>> documents = f.elements("documents", LaxValues::asObject);
        return new ChatTemplating(f.string("chat_template"), f.object("chat_template_kwargs").orElse(Map.of()),
                f.bool("add_generation_prompt", true), f.bool("continue_final_message", false),
                f.bool("add_special_tokens", false), documents, effort,
                f.object("mm_processor_kwargs").orElse(Map.of()));
    }

    /** The renderer's checks, after the tool-choice check (vLLM's {@code OnlineRenderer.render_chat}). */
    static void trust(ChatTemplating t) {
        if (t.chatTemplate().isPresent() || t.chatTemplateKwargs().get("chat_template") != null) {
            throw ProtocolChecks.fail("chat_template", "Chat template is passed with request, but "
                    + "--trust-request-chat-template is not set. Refused request with untrusted chat template.");
        }
        List<String> forbidden = Stream.of("chat_template", "tokenize")
                .filter(t.chatTemplateKwargs()::containsKey).toList();
        if (!forbidden.isEmpty()) {
            throw ProtocolChecks.fail("chat_template_kwargs", "Found unexpected chat template kwargs from request: "
                    + forbidden.stream().map(PythonRepr::string).collect(Collectors.joining(", ", "{", "}")));
        }
        if (!t.mmProcessorKwargs().isEmpty()) {
            throw ProtocolChecks.fail("mm_processor_kwargs", "Per-request mm_processor_kwargs are disabled by default "
                    + "because they can change multimodal preprocessing resource usage. Start the server with "
                    + "--trust-request-mm-kwargs only when clients are trusted.");
        }
    }

    /** pydantic's list of the literals: {@code 'a', 'b' or 'c'}. */
    private static String expected() {
        List<String> quoted = REASONING_EFFORTS.stream().map(PythonRepr::string).toList();
        return String.join(", ", quoted.subList(0, quoted.size() - 1)) + " or " + quoted.getLast();
    }
}

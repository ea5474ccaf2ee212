package dev.crucible.adapters.http.inference;

import dev.crucible.application.inference.chat.ask.ChatTemplating;
import dev.crucible.kernel.python.PythonRepr;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads the template fields and applies the renderer's rule that {@code chat_template_kwargs} may set neither
 * {@code chat_template} nor {@code tokenize}. A request's {@code chat_template} is the use case's to render or refuse
 * (a server setting decides); {@code mm_processor_kwargs} are accepted and have no effect, since Crucible serves text
 * models only, which have no multimodal processor.
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
        List<String> forbidden = Stream.of("chat_template", "tokenize")
                .filter(t.chatTemplateKwargs()::containsKey).toList();
        if (!forbidden.isEmpty()) {
            throw ProtocolChecks.fail("chat_template_kwargs", "Found unexpected chat template kwargs from request: "
                    + forbidden.stream().map(PythonRepr::string).collect(Collectors.joining(", ", "{", "}")));
        }
    }

    /** pydantic's list of the literals: {@code 'a', 'b' or 'c'}. */
    private static String expected() {
        List<String> quoted = REASONING_EFFORTS.stream().map(PythonRepr::string).toList();
        return String.join(", ", quoted.subList(0, quoted.size() - 1)) + " or " + quoted.getLast();
    }
}

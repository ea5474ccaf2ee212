package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code --model-precision NAME=int4} ({@code crucible.model-precisions}) quantises one served model at load, on the
 * onnx engine: the same model and prompt answer with other logprobs than in a server that serves it at F32, and the
 * other base model of that server keeps its F32 logprobs.
 */
class ModelPrecisionIT {

    @Test
    void oneModelIsServedAtInt4AndTheOtherStaysAtF32() {
        double f32;
        double otherF32;
        try (TestServer server = TestServer.start(Map.of("crucible.inference-engine", "onnx"))) {
            Api api = server.api(server.newKey("prec"));
            f32 = firstLogprob(api, TestServer.BASE_MODEL);
            otherF32 = firstLogprob(api, TestServer.OTHER_BASE_MODEL);
        }
        try (TestServer server = TestServer.start(Map.of("crucible.inference-engine", "onnx",
                "crucible.model-precisions", List.of(TestServer.BASE_MODEL + "=int4")))) {
            Api api = server.api(server.newKey("prec"));
            assertNotEquals(f32, firstLogprob(api, TestServer.BASE_MODEL), "int4 logprobs are not F32's");
            assertEquals(otherF32, firstLogprob(api, TestServer.OTHER_BASE_MODEL), "the other model is still F32");
        }
    }

    @SuppressWarnings("unchecked")
    private static double firstLogprob(Api api, String model) {
        Api.Reply reply = api.post("/v1/chat/completions", RequestBodies.chat("Say something.", "model", model,
                "max_tokens", 1, "temperature", 0, "logprobs", true));
        assertEquals(200, reply.status(), reply.toString());
        Map<String, Object> choice = ((List<Map<String, Object>>) reply.json().get("choices")).getFirst();
        Map<String, Object> logprobs = (Map<String, Object>) choice.get("logprobs");
        return ((Number) ((List<Map<String, Object>>) logprobs.get("content")).getFirst().get("logprob")).doubleValue();
    }
}

package dev.crucible.server.api;

import java.util.Map;

/** {@link PrefixCachingIT} on the ONNX engine. */
class PrefixCachingOnnxIT extends PrefixCachingIT {

    @Override
    Map<String, Object> properties() {
        return Map.of("crucible.inference-engine", "onnx");
    }
}

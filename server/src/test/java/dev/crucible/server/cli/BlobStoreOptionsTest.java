package dev.crucible.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class BlobStoreOptionsTest {

    @Test
    void localIsTheDefaultAndIgnoresS3sVariables() {
        Map<String, String> env = Map.of("CRUCIBLE_S3_ENDPOINT", "http://127.0.0.1:9000");
        assertEquals(Map.of("crucible.blob.store", "local"), BlobStoreOptions.properties(null, env));
        assertEquals(Map.of("crucible.blob.store", "local"), BlobStoreOptions.properties(" local ", env));
    }

    @Test
    void anS3AddressTakesEndpointRegionAndPathStyleFromTheEnvironment() {
        assertEquals(Map.of("crucible.blob.store", "s3://bucket/prefix",
                "crucible.blob.s3.endpoint", "http://127.0.0.1:9000",
                "crucible.blob.s3.region", "eu-west-1",
                "crucible.blob.s3.path-style", "true"),
                BlobStoreOptions.properties("s3://bucket/prefix", Map.of("CRUCIBLE_S3_ENDPOINT",
                        "http://127.0.0.1:9000", "AWS_REGION", "eu-west-1", "CRUCIBLE_S3_PATH_STYLE", "true")));
        assertEquals("us-east-2", BlobStoreOptions.properties("s3://bucket", Map.of("CRUCIBLE_S3_REGION", "us-east-2",
                "AWS_REGION", "eu-west-1")).get("crucible.blob.s3.region"), "Crucible's own variable wins");
    }

    @Property
    void anythingElseIsRefusedNamingTheOption(@ForAll String value) {
        String v = value.strip();
        if (v.isEmpty() || v.equals("local") || v.startsWith("s3://")) {
            return;
        }
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> BlobStoreOptions.properties(value, Map.of()));
        assertTrue(refused.getMessage().startsWith("--blob-store"), refused.getMessage());
    }
}

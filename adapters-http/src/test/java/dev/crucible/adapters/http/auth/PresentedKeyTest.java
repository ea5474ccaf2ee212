package dev.crucible.adapters.http.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class PresentedKeyTest {

    @Test
    void aBearerKeyAndTheSameKeyInBasicOnTheFeedbackRoutesShareABucketThatIsNotTheKey() {
        String basic = "Basic " + Base64.getEncoder().encodeToString("api:sk-1".getBytes(StandardCharsets.UTF_8));
        String bucket = PresentedKey.bucket("Bearer sk-1", "/v1/chat/completions");
        assertEquals(bucket, PresentedKey.bucket(basic, "/feedback/batch/create"));
        assertFalse(bucket.contains("sk-1"));
        assertNotEquals(bucket, PresentedKey.bucket("Bearer sk-2", "/v1/chat/completions"));
    }

    @Test
    void noKeyOrBasicOutsideTheFeedbackRoutesIsTheBucketOfNoKey() {
        String basic = "Basic " + Base64.getEncoder().encodeToString("api:sk-1".getBytes(StandardCharsets.UTF_8));
        assertEquals(PresentedKey.NONE, PresentedKey.bucket(null, "/v1/files"));
        assertEquals(PresentedKey.NONE, PresentedKey.bucket("Bearer  ", "/v1/files"));
        assertEquals(PresentedKey.NONE, PresentedKey.bucket(basic, "/v1/files"));
    }

    @Test
    void theTinkerKeyHeaderIsTheKeyWithoutItsPrefixOnThePrimitivesRoutesOnly() {
        String bucket = PresentedKey.bucket("Bearer sk-1", "/api/v1/create_model");
        assertEquals(bucket, PresentedKey.bucket(null, "tml-sk-1", "/api/v1/create_model"));
        assertEquals(bucket, PresentedKey.bucket(null, "sk-1", "/api/v1/retrieve_future"));
        assertEquals(bucket, PresentedKey.bucket("Bearer sk-1", "tml-other", "/api/v1/create_model"),
                "Authorization wins");
        assertEquals(PresentedKey.NONE, PresentedKey.bucket(null, "tml-sk-1", "/v1/chat/completions"));
        assertEquals(PresentedKey.NONE, PresentedKey.bucket(null, "tml-", "/api/v1/create_model"));
    }
}

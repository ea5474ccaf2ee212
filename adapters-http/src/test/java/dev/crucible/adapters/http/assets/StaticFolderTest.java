package dev.crucible.adapters.http.assets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class StaticFolderTest {

    private static final byte[] PAGE = "<p>hi</p>".getBytes(StandardCharsets.UTF_8);
    private static final StaticFolder FOLDER = new StaticFolder("/pages",
            Map.of("index.html", new StaticAsset(PAGE, MediaType.TEXT_HTML)), "default-src 'self'");

    @Test
    void thePathSendsTheBrowserToItsIndex() {
        HttpResponse<?> response = FOLDER.index();
        assertEquals(HttpStatus.SEE_OTHER, response.getStatus());
        assertEquals("/pages/index.html", response.getHeaders().get(HttpHeaders.LOCATION));
    }

    @Test
    void aKnownFileIsServedUnderTheFoldersPolicy() {
        HttpResponse<?> response = FOLDER.file("index.html");
        assertEquals(HttpStatus.OK, response.getStatus());
        assertArrayEquals(PAGE, (byte[]) response.body());
        assertEquals(MediaType.TEXT_HTML, response.getHeaders().get(HttpHeaders.CONTENT_TYPE));
        assertEquals("default-src 'self'", response.getHeaders().get("Content-Security-Policy"));
    }

    @Property
    void anyOtherNameIsNotFound(@ForAll String name) {
        if (!name.equals("index.html")) {
            assertEquals(HttpStatus.NOT_FOUND, FOLDER.file(name).getStatus());
        }
    }
}

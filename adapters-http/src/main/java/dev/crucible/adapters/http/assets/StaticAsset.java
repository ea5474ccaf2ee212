package dev.crucible.adapters.http.assets;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * A static file the server serves from its class path (its own pages, a webjar's scripts), read once: such files are
 * part of the build and never change. Requests pick assets from a fixed map of names, so no path from a request
 * reaches the class path.
 *
 * @param bytes the file
 * @param type  its content type
 */
public record StaticAsset(byte[] bytes, String type) {

    /** The class-path resource {@code resource}, served as {@code type}. */
    public static StaticAsset read(String resource, String type) {
        return new StaticAsset(bytes(resource), type);
    }

    /** The folder of a webjar's files, {@code META-INF/resources/webjars/<name>/<version>/}, at the version built. */
    public static String webjar(String group, String artifact, String name) {
        Properties properties = new Properties();
        try {
            properties.load(new ByteArrayInputStream(bytes("META-INF/maven/" + group + "/" + artifact
                    + "/pom.properties")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return "META-INF/resources/webjars/" + name + "/" + properties.getProperty("version") + "/";
    }

    /** The asset as a 200 under content security policy {@code policy}, not sniffed, revalidated on each use. */
    public MutableHttpResponse<byte[]> response(String policy) {
        return HttpResponse.ok(bytes).contentType(type).header("Content-Security-Policy", policy)
                .header("X-Content-Type-Options", "nosniff").header("Cache-Control", "no-cache");
    }

    private static byte[] bytes(String resource) {
        try (InputStream in = StaticAsset.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the resource " + resource + " is not on the class path");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package dev.crucible.adapters.http.assets;

import io.micronaut.http.HttpResponse;
import java.net.URI;
import java.util.Map;

/**
 * A few static files served under one path and one content security policy (the console, the API docs): the path
 * itself sends the browser to its {@code index.html}; a name not in {@code files} is a 404.
 *
 * @param path   where the files are served, e.g. {@code /console}
 * @param files  the files by name
 * @param policy the content security policy every file is served under
 */
public record StaticFolder(String path, Map<String, StaticAsset> files, String policy) {

    public StaticFolder {
        files = Map.copyOf(files);
    }

    /** {@code 303 See Other} to the folder's {@code index.html}. */
    public HttpResponse<?> index() {
        return HttpResponse.seeOther(URI.create(path + "/index.html"));
    }

    /** The file {@code name}, or a 404 for a name not in the folder. */
    public HttpResponse<?> file(String name) {
        StaticAsset asset = files.get(name);
        return asset == null ? HttpResponse.notFound() : asset.response(policy);
    }
}

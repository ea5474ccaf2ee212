package dev.crucible.adapters.s3;

import dev.crucible.application.blob.ManifestName;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a blob store lives in S3: {@code s3://bucket/prefix}.
 *
 * @param bucket the bucket, as S3 names them (3 to 63 lowercase letters, digits, dots and hyphens)
 * @param prefix what every key starts with: empty, or ending in {@code /}
 */
public record S3Location(String bucket, String prefix) {

    private static final Pattern ADDRESS = Pattern.compile("s3://([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:/(.*))?");

    public S3Location {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(prefix, "prefix");
        if (!prefix.isEmpty() && !(prefix.endsWith("/")
                && ManifestName.isValid(prefix.substring(0, prefix.length() - 1)))) {
            throw new IllegalArgumentException("prefix must be empty or segments of [A-Za-z0-9._-], none . or .., "
                    + "each ending in /, got '" + prefix + "'");
        }
    }

    /**
     * Reads {@code s3://bucket} or {@code s3://bucket/some/prefix} (a trailing slash is optional).
     *
     * @throws IllegalArgumentException naming the setting when {@code address} is not one
     */
    public static S3Location parse(String address) {
        Matcher m = ADDRESS.matcher(address == null ? "" : address.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("--blob-store must be 'local' or s3://<bucket>[/<prefix>], got '"
                    + address + "'");
        }
        String prefix = m.group(2) == null || m.group(2).isEmpty() ? "" : m.group(2).replaceAll("/+$", "") + "/";
        return new S3Location(m.group(1), prefix);
    }

    @Override
    public String toString() {
        return "s3://" + bucket + "/" + prefix;
    }
}

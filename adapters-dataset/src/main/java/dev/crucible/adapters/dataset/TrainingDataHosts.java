package dev.crucible.adapters.dataset;

import dev.crucible.kernel.refusal.Excerpt;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.hc.client5.http.DnsResolver;

/**
 * The SSRF guard of dataset downloads, as the HTTP client's only resolver: a host is looked up once, every address
 * it resolves to is checked ({@link SpecialPurposeAddresses}), and the client connects to exactly those addresses, so
 * a DNS answer that changes between a check and a connection (rebinding) has no second lookup to change. A host that
 * is an ambiguous IPv4 literal is refused always; a special-purpose address is refused unless
 * {@code crucible.training-data.allow-private-hosts} is set. Refusals name the host as the caller wrote it, never
 * what it resolved to. Thread-safe.
 */
public final class TrainingDataHosts implements DnsResolver {

    /** A host the guard refuses; a kind of {@link UnknownHostException} so the client stops before connecting. */
    static final class Refused extends UnknownHostException {
        Refused(String message) {
            super(message);
        }
    }

    static final String SETTING = "crucible.training-data.allow-private-hosts";

    private final boolean allowPrivateHosts;

    /** @param allowPrivateHosts whether special-purpose addresses (loopback included) may be downloaded from */
    public TrainingDataHosts(boolean allowPrivateHosts) {
        this.allowPrivateHosts = allowPrivateHosts;
    }

    /**
     * The addresses to connect to for {@code host}, each one checked.
     *
     * @throws Refused when the guard refuses the host or one of its addresses
     * @throws UnknownHostException when the host does not resolve
     */
    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (SpecialPurposeAddresses.ambiguousIpv4(bare)) {
            throw new Refused("host " + Excerpt.of(host) + " reads as an IPv4 address in a form that programs read "
                    + "differently (octal or hexadecimal parts, fewer than four parts); write it as four decimal "
                    + "numbers");
        }
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(bare);
        } catch (UnknownHostException e) {
            throw new UnknownHostException("unknown host " + Excerpt.of(host));
        }
        if (!allowPrivateHosts && Arrays.stream(addresses).anyMatch(SpecialPurposeAddresses::refused)) {
            throw new Refused("host " + Excerpt.of(host) + " is, or resolves to, a loopback, private, link-local or "
                    + "other special-purpose address, which training data is not downloaded from (setting " + SETTING
                    + ")");
        }
        return addresses;
    }

    @Override
    public List<InetSocketAddress> resolve(String host, int port) throws UnknownHostException {
        return Arrays.stream(resolve(host)).map(address -> new InetSocketAddress(address, port)).toList();
    }

    /** The host as given: no reverse lookup, so no second answer. */
    @Override
    public String resolveCanonicalHostname(String host) {
        return host;
    }

    /**
     * What a download of {@code uri} would be refused with before any connection, or empty when the guard lets its
     * host through (a lookup, nothing more).
     */
    public Optional<String> refusal(URI uri) {
        if (uri.getHost() == null) {
            return Optional.of("the URL has no host");
        }
        try {
            resolve(uri.getHost());
            return Optional.empty();
        } catch (UnknownHostException e) {
            return Optional.of(e.getMessage());
        }
    }
}

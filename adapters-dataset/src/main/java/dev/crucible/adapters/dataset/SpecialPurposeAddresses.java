package dev.crucible.adapters.dataset;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The addresses a tenant's download must never reach, decided on the address alone (no lookup): every block of the
 * IANA IPv4 and IPv6 Special-Purpose Address Registries that is not globally reachable, a few registered blocks that
 * are but serve no data (anycast relays, AS112), multicast, and, for the IPv6 forms that carry an IPv4 address
 * (IPv4-mapped, IPv4-translated, NAT64, 6to4), the embedded address judged the same way. The deprecated
 * IPv4-compatible block {@code ::/96} and site-local {@code fec0::/10} are refused whole.
 *
 * <p>Also the host names that other programs read as an IPv4 address differently than Java does: {@code 0177.0.0.1}
 * is 127.0.0.1 to curl and a browser but 177.0.0.1 to Java, {@code 0x7f.1} and {@code 2130706433} are 127.0.0.1 to
 * them. A host whose last label is a number (WHATWG URL's test for "this is an IPv4 address") must be four decimal
 * parts of 0 to 255 without leading zeros, or it is refused.
 */
public final class SpecialPurposeAddresses {

    /** A block of addresses: the first {@code bits} bits of {@code prefix}. */
    private record Block(byte[] prefix, int bits) {
        static Block of(String cidr) {
            int slash = cidr.indexOf('/');
            try {
                byte[] prefix = InetAddress.getByName(cidr.substring(0, slash)).getAddress();
                if (prefix.length == 4 && cidr.contains(":")) { // Java reads ::ffff:a.b.c.d as IPv4: keep 16 bytes
                    prefix = new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, prefix[0], prefix[1], prefix[2],
                        prefix[3]};
                }
                return new Block(prefix, Integer.parseInt(cidr.substring(slash + 1)));
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException(cidr, e);
            }
        }

        boolean contains(byte[] address) {
            if (address.length != prefix.length) {
                return false;
            }
            for (int bit = 0; bit < bits; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((address[bit / 8] & mask) != (prefix[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** IPv4: the registry's blocks (RFC 6890 and its updates) with multicast; 192.0.0.0/24 whole. */
    private static final List<Block> IPV4 = List.of(
            Block.of("0.0.0.0/8"), // "this network" (RFC 791)
            Block.of("10.0.0.0/8"), // private (RFC 1918)
            Block.of("100.64.0.0/10"), // shared address space, carrier-grade NAT (RFC 6598)
            Block.of("127.0.0.0/8"), // loopback
            Block.of("169.254.0.0/16"), // link-local, where cloud metadata services answer
            Block.of("172.16.0.0/12"), // private
            Block.of("192.0.0.0/24"), // IETF protocol assignments (DS-Lite, NAT64 discovery; 192.0.0.192 metadata)
            Block.of("192.0.2.0/24"), // TEST-NET-1
            Block.of("192.31.196.0/24"), // AS112-v4
            Block.of("192.52.193.0/24"), // AMT
            Block.of("192.88.99.0/24"), // deprecated 6to4 relay anycast
            Block.of("192.168.0.0/16"), // private
            Block.of("192.175.48.0/24"), // direct delegation AS112
            Block.of("198.18.0.0/15"), // benchmarking
            Block.of("198.51.100.0/24"), // TEST-NET-2
            Block.of("203.0.113.0/24"), // TEST-NET-3
            Block.of("224.0.0.0/4"), // multicast
            Block.of("240.0.0.0/4"), // reserved, with 255.255.255.255 limited broadcast
            Block.of("255.255.255.255/32"));

    /** IPv6 blocks refused whole. */
    private static final List<Block> IPV6 = List.of(
            Block.of("::/96"), // unspecified ::, loopback ::1 and the deprecated IPv4-compatible ::a.b.c.d
            Block.of("64:ff9b:1::/48"), // local-use NAT64 (RFC 8215)
            Block.of("100::/64"), // discard-only (RFC 6666)
            Block.of("100:0:0:1::/64"), // dummy prefix (RFC 9780)
            Block.of("2001::/23"), // IETF protocol assignments: Teredo 2001::/32, benchmarking, ORCHID, ...
            Block.of("2001:db8::/32"), // documentation
            Block.of("2620:4f:8000::/48"), // direct delegation AS112
            Block.of("3fff::/20"), // documentation (RFC 9637)
            Block.of("5f00::/16"), // segment routing SIDs (RFC 9602)
            Block.of("fc00::/7"), // unique local
            Block.of("fe80::/10"), // link-local
            Block.of("fec0::/10"), // deprecated site-local
            Block.of("ff00::/8")); // multicast

    /** IPv6 blocks whose last 32 bits are an IPv4 address (RFC 4291 mapped, RFC 6052 NAT64, RFC 7915 translated). */
    private static final List<Block> EMBEDDING_LAST_32 = List.of(Block.of("::ffff:0:0/96"), Block.of("64:ff9b::/96"),
            Block.of("::ffff:0:0:0/96"));

    /** 6to4 (RFC 3056): the IPv4 address is bits 16 to 47. */
    private static final Block SIX_TO_FOUR = Block.of("2002::/16");

    private static final Pattern NUMERIC_LABEL = Pattern.compile("(?i)[0-9]+|0x[0-9a-f]*");
    private static final Pattern DOTTED_QUAD = Pattern.compile(
            "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");

    private SpecialPurposeAddresses() {
    }

    /** Whether a download must not connect to {@code address}. */
    public static boolean refused(InetAddress address) {
        byte[] raw = address.getAddress();
        if (address instanceof Inet4Address) {
            return refusedIpv4(raw);
        }
        if (!(address instanceof Inet6Address)) {
            return true;
        }
        for (Block block : IPV6) {
            if (block.contains(raw)) {
                return true;
            }
        }
        for (Block block : EMBEDDING_LAST_32) {
            if (block.contains(raw)) {
                return refusedIpv4(new byte[] {raw[12], raw[13], raw[14], raw[15]});
            }
        }
        if (SIX_TO_FOUR.contains(raw)) {
            return refusedIpv4(new byte[] {raw[2], raw[3], raw[4], raw[5]});
        }
        return false;
    }

    private static boolean refusedIpv4(byte[] raw) {
        for (Block block : IPV4) {
            if (block.contains(raw)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code host} (as a URL writes it, IPv6 literals in brackets) is an address rather than a name: an IPv6
     * literal, or anything whose last label is a number, which Java parses without a lookup or
     * {@link #ambiguousIpv4} refuses.
     */
    static boolean literal(String host) {
        String[] labels = host.split("\\.", -1);
        String last = labels[labels.length - 1].isEmpty() && labels.length > 1 ? labels[labels.length - 2]
                : labels[labels.length - 1];
        return host.startsWith("[") || host.contains(":") || NUMERIC_LABEL.matcher(last).matches();
    }

    /**
     * Whether {@code host} (as a URL writes it, IPv6 literals in brackets) is an IPv4 address in a form that programs
     * read differently: octal or hexadecimal parts, fewer than four parts, a single number, a trailing dot.
     */
    public static boolean ambiguousIpv4(String host) {
        if (host.startsWith("[") || host.contains(":")) {
            return false;
        }
        String[] labels = host.split("\\.", -1);
        String last = labels[labels.length - 1];
        if (last.isEmpty() && labels.length > 1) {
            last = labels[labels.length - 2]; // a trailing dot: WHATWG looks at the label before it
            return NUMERIC_LABEL.matcher(last).matches();
        }
        return NUMERIC_LABEL.matcher(last).matches() && !DOTTED_QUAD.matcher(host).matches();
    }
}

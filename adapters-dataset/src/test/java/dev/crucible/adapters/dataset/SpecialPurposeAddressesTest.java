package dev.crucible.adapters.dataset;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The guard's decision, address by address and literal by literal: nothing here connects anywhere. The blocks are
 * those of the IANA IPv4 and IPv6 Special-Purpose Address Registries that are not globally reachable, with the few
 * the guard refuses beyond them (multicast, AS112 and relay anycast, deprecated IPv6 forms).
 */
class SpecialPurposeAddressesTest {

    static final List<String> IPV4_BLOCKS = List.of("0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8",
            "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.31.196.0/24", "192.52.193.0/24",
            "192.88.99.0/24", "192.168.0.0/16", "192.175.48.0/24", "198.18.0.0/15", "198.51.100.0/24",
            "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4", "255.255.255.255/32");
    static final List<String> IPV6_BLOCKS = List.of("::/128", "::1/128", "::/96", "64:ff9b:1::/48", "100::/64",
            "2001::/23", "2001::/32", "2001:db8::/32", "3fff::/20", "5f00::/16", "fc00::/7", "fe80::/10",
            "fec0::/10", "ff00::/8");

    private static InetAddress address(String text) {
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    private static InetAddress address(byte[] raw) {
        try {
            return InetAddress.getByAddress(raw);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** The address {@code offset} into {@code cidr}'s block, wrapping within it. */
    private static InetAddress inside(String cidr, BigInteger offset) {
        int slash = cidr.indexOf('/');
        byte[] prefix = address(cidr.substring(0, slash)).getAddress();
        int bits = Integer.parseInt(cidr.substring(slash + 1));
        int width = prefix.length * 8;
        BigInteger hostBits = offset.mod(BigInteger.ONE.shiftLeft(width - bits));
        BigInteger value = new BigInteger(1, prefix).or(hostBits);
        byte[] raw = value.toByteArray();
        byte[] out = new byte[prefix.length];
        int copy = Math.min(raw.length, out.length);
        System.arraycopy(raw, raw.length - copy, out, out.length - copy, copy);
        return address(out);
    }

    @Test
    void everyBlockIsRefusedAtItsFirstAndLastAddress() {
        for (String cidr : concat(IPV4_BLOCKS, IPV6_BLOCKS)) {
            assertTrue(SpecialPurposeAddresses.refused(inside(cidr, BigInteger.ZERO)), cidr + " first");
            assertTrue(SpecialPurposeAddresses.refused(inside(cidr, BigInteger.ONE.negate())), cidr + " last");
        }
    }

    @Property(tries = 400)
    void everyAddressInsideABlockIsRefused(@ForAll("blocks") String cidr, @ForAll("offsets") BigInteger offset) {
        assertTrue(SpecialPurposeAddresses.refused(inside(cidr, offset)), cidr + " + " + offset);
    }

    @Provide
    Arbitrary<String> blocks() {
        return Arbitraries.of(concat(IPV4_BLOCKS, IPV6_BLOCKS));
    }

    @Provide
    Arbitrary<BigInteger> offsets() {
        return Arbitraries.bigIntegers().between(BigInteger.ZERO, BigInteger.ONE.shiftLeft(128));
    }

    @Test
    void theNeighboursOfBlocksAndPublicAddressesAreLetThrough() {
        for (String global : List.of("8.8.8.8", "1.1.1.1", "1.0.0.0", "9.255.255.255", "11.0.0.0", "100.63.255.255",
                "100.128.0.0", "126.255.255.255", "128.0.0.0", "169.253.255.255", "169.255.0.0", "172.15.255.255",
                "172.32.0.0", "191.255.255.255", "192.0.1.0", "192.0.3.0", "192.167.255.255", "192.169.0.0",
                "198.17.255.255", "198.20.0.0", "223.255.255.255", "2001:4860:4860::8888", "2606:4700::1111",
                "2001:200::1", "2a00:1450::1", "64:ff9b::808:808", "2002:808:808::1", "64:ff9a::1")) {
            assertFalse(SpecialPurposeAddresses.refused(address(global)), global);
        }
    }

    @Test
    void ipv6FormsThatCarryAnIpv4AddressAreJudgedByIt() {
        byte[] mappedLoopback = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, 127, 0, 0, 1};
        assertTrue(SpecialPurposeAddresses.refused(address(mappedLoopback)), "::ffff:127.0.0.1");
        for (String embedded : List.of("64:ff9b::7f00:1", "64:ff9b::c000:c0", "64:ff9b::a9fe:a9fe", "64:ff9b::a00:1",
                "2002:7f00:1::", "2002:c000:c0::1", "2002:a9fe:a9fe::", "::ffff:0:a9fe:a9fe", "::ffff:0:7f00:1",
                "::127.0.0.1", "::8.8.8.8", "64:ff9b:1::808:808", "2001:0:4136:e378::1")) {
            assertTrue(SpecialPurposeAddresses.refused(address(embedded)), embedded);
        }
        assertFalse(SpecialPurposeAddresses.refused(address("::ffff:0:808:808")), "translated 8.8.8.8");
    }

    @Property(tries = 200)
    void nat64And6to4OfASpecialAddressAreRefusedAndOfAPublicOneAreNot(@ForAll("blocks4") String cidr,
            @ForAll @IntRange(min = 0) int offset) {
        byte[] v4 = inside(cidr, BigInteger.valueOf(offset)).getAddress();
        byte[] nat64 = {0, 0x64, (byte) 0xff, (byte) 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, v4[0], v4[1], v4[2], v4[3]};
        byte[] sixToFour = {0x20, 0x02, v4[0], v4[1], v4[2], v4[3], 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
        assertTrue(SpecialPurposeAddresses.refused(address(nat64)), Arrays.toString(nat64));
        assertTrue(SpecialPurposeAddresses.refused(address(sixToFour)), Arrays.toString(sixToFour));
    }

    @Provide
    Arbitrary<String> blocks4() {
        return Arbitraries.of(IPV4_BLOCKS);
    }

    @Test
    void ipv4LiteralsOtherProgramsReadDifferentlyAreAmbiguous() {
        for (String ambiguous : List.of("0177.0.0.1", "0x7f.1", "0x7f.0.0.1", "0X7F.0.0.1", "2130706433", "127.1",
                "127.0.1", "127.0.0.01", "1.2.3.4.", "0", "0x", "1.2.3.256", "1.2.3.4.5", "example.0x7f", "a.123")) {
            assertTrue(SpecialPurposeAddresses.ambiguousIpv4(ambiguous), ambiguous);
            assertTrue(SpecialPurposeAddresses.literal(ambiguous), ambiguous);
        }
        for (String plain : List.of("127.0.0.1", "8.8.8.8", "0.0.0.0", "255.255.255.255", "example.com",
                "example.com.", "0x.com", "1.2.3.4.example", "[::1]", "[::ffff:127.0.0.1]", "localhost")) {
            assertFalse(SpecialPurposeAddresses.ambiguousIpv4(plain), plain);
        }
        assertTrue(SpecialPurposeAddresses.literal("[::1]"));
        assertFalse(SpecialPurposeAddresses.literal("example.com"));
        assertFalse(SpecialPurposeAddresses.literal("localhost"));
    }

    @Property(tries = 200)
    void everyIpv4AddressHasOneCanonicalSpellingAndItsOtherSpellingsAreAmbiguous(@ForAll int bits) {
        long value = bits & 0xffffffffL;
        int a = (int) (value >>> 24);
        int b = (int) (value >>> 16 & 255);
        int c = (int) (value >>> 8 & 255);
        int d = (int) (value & 255);
        assertFalse(SpecialPurposeAddresses.ambiguousIpv4(a + "." + b + "." + c + "." + d));
        assertTrue(SpecialPurposeAddresses.ambiguousIpv4(Long.toString(value)));
        assertTrue(SpecialPurposeAddresses.ambiguousIpv4("0x" + Long.toHexString(value)));
        assertTrue(SpecialPurposeAddresses.ambiguousIpv4("0" + a + "." + b + "." + c + "." + d));
        assertTrue(SpecialPurposeAddresses.ambiguousIpv4(a + "." + (value & 0xffffff)));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}

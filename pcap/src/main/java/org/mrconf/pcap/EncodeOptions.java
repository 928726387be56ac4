package org.mrconf.pcap;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * How {@link FrameCodec#encode(UdpFrame, EncodeOptions)} writes the fields it derives. {@link #DEFAULT} gives a
 * well-formed frame; the {@code with…} methods let a tester emit malformed ones on purpose.
 *
 * @param ipv4HeaderChecksum the IPv4 header checksum (ignored for IPv6, which has none)
 * @param udpChecksum        the UDP checksum
 * @param ipLength           if present, written as the IPv4 Total Length or IPv6 Payload Length instead of the
 *                           true value (the frame's bytes are unchanged; checksums are computed over them as sent)
 * @param udpLength          if present, written as the UDP Length instead of the true value; the UDP checksum
 *                           still uses the true length in its pseudo-header
 * @param padToMinimumFrame  pad with zeros to the 60-byte Ethernet minimum (without FCS), as a NIC would
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record EncodeOptions(
        ChecksumMode ipv4HeaderChecksum,
        ChecksumMode udpChecksum,
        OptionalInt ipLength,
        OptionalInt udpLength,
        boolean padToMinimumFrame) {

    /** Correct checksums and lengths, no padding. */
    public static final EncodeOptions DEFAULT = new EncodeOptions(
            ChecksumMode.CORRECT, ChecksumMode.CORRECT, OptionalInt.empty(), OptionalInt.empty(), false);

    public EncodeOptions {
        Objects.requireNonNull(ipv4HeaderChecksum, "ipv4HeaderChecksum");
        Objects.requireNonNull(udpChecksum, "udpChecksum");
        Objects.requireNonNull(ipLength, "ipLength");
        Objects.requireNonNull(udpLength, "udpLength");
        checkU16("ipLength", ipLength);
        checkU16("udpLength", udpLength);
    }

    private static void checkU16(String name, OptionalInt v) {
        if (v.isPresent() && (v.getAsInt() < 0 || v.getAsInt() > 0xFFFF)) {
            throw new IllegalArgumentException(name + " must fit 16 bits: " + v.getAsInt());
        }
    }

    public EncodeOptions withIpv4HeaderChecksum(ChecksumMode mode) {
        return new EncodeOptions(mode, udpChecksum, ipLength, udpLength, padToMinimumFrame);
    }

    public EncodeOptions withUdpChecksum(ChecksumMode mode) {
        return new EncodeOptions(ipv4HeaderChecksum, mode, ipLength, udpLength, padToMinimumFrame);
    }

    /** Writes {@code length} as the IPv4 Total Length / IPv6 Payload Length (a deliberately wrong field). */
    public EncodeOptions withIpLength(int length) {
        return new EncodeOptions(ipv4HeaderChecksum, udpChecksum, OptionalInt.of(length), udpLength, padToMinimumFrame);
    }

    /** Writes {@code length} as the UDP Length (a deliberately wrong field). */
    public EncodeOptions withUdpLength(int length) {
        return new EncodeOptions(ipv4HeaderChecksum, udpChecksum, ipLength, OptionalInt.of(length), padToMinimumFrame);
    }

    public EncodeOptions withPadToMinimumFrame(boolean pad) {
        return new EncodeOptions(ipv4HeaderChecksum, udpChecksum, ipLength, udpLength, pad);
    }
}

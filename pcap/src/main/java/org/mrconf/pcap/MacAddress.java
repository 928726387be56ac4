package org.mrconf.pcap;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.util.Locale;
import org.apiguardian.api.API;

/** An immutable 48-bit Ethernet MAC address. Kept as our own type so the public API does not expose Pcap4J. */
@API(status = MAINTAINED, since = "0.1")
public final class MacAddress {

    private static final long MASK = 0xFFFF_FFFF_FFFFL;

    private final long value;

    private MacAddress(long value) {
        this.value = value;
    }

    /** The address whose 48 bits are the low 48 bits of {@code value}, most significant byte first on the wire. */
    public static MacAddress of(long value) {
        if ((value & ~MASK) != 0) {
            throw new IllegalArgumentException("MAC address has more than 48 bits: 0x" + Long.toHexString(value));
        }
        return new MacAddress(value);
    }

    /** The address of six bytes in wire order. */
    public static MacAddress of(byte[] bytes) {
        return of(bytes, 0);
    }

    /** The address of the six bytes at {@code offset} in wire order. */
    public static MacAddress of(byte[] bytes, int offset) {
        if (offset < 0 || bytes.length - offset < 6) {
            throw new IllegalArgumentException(
                    "a MAC address needs 6 bytes at offset " + offset + " of " + bytes.length);
        }
        long v = 0;
        for (int i = 0; i < 6; i++) {
            v = (v << 8) | (bytes[offset + i] & 0xFF);
        }
        return new MacAddress(v);
    }

    /** Parses {@code 02:00:00:00:00:01} (or with {@code -} separators), case-insensitive. */
    public static MacAddress parse(String text) {
        String[] parts = text.split("[:-]", -1);
        if (parts.length != 6) {
            throw new IllegalArgumentException("not a MAC address (want six hex bytes): " + text);
        }
        long v = 0;
        for (String p : parts) {
            if (p.length() != 2) {
                throw new IllegalArgumentException("not a MAC address (want two hex digits per byte): " + text);
            }
            try {
                v = (v << 8) | Integer.parseInt(p, 16);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a MAC address (bad hex): " + text, e);
            }
        }
        return new MacAddress(v);
    }

    /** The 48-bit value. */
    public long toLong() {
        return value;
    }

    /** A new six-byte array in wire order. */
    public byte[] toBytes() {
        byte[] b = new byte[6];
        for (int i = 0; i < 6; i++) {
            b[i] = (byte) (value >>> (40 - 8 * i));
        }
        return b;
    }

    /** True if the locally-administered bit (0x02 of the first byte) is set. */
    public boolean isLocallyAdministered() {
        return (value & 0x0200_0000_0000L) != 0;
    }

    /** True if the group (multicast) bit (0x01 of the first byte) is set. */
    public boolean isMulticast() {
        return (value & 0x0100_0000_0000L) != 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MacAddress && ((MacAddress) o).value == value;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(value);
    }

    /** Lower-case colon form, {@code 02:00:00:00:00:01}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(17);
        for (byte b : toBytes()) {
            if (sb.length() > 0) {
                sb.append(':');
            }
            sb.append(String.format(Locale.ROOT, "%02x", b & 0xFF));
        }
        return sb.toString();
    }
}

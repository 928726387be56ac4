package org.mrconf.transport;

import java.nio.ByteBuffer;
import org.mrconf.defect.Defect;
import org.mrconf.defect.Defects;
import org.mrconf.wire.Crc32cTrailer;
import org.mrconf.wire.DecodeStatus;
import org.mrconf.wire.DecodedPacket;
import org.mrconf.wire.PacketDecoder;

/**
 * The receive checks of {@link Endpoint}, with the decode-stage {@link Defect}s of the self-validation catalogue
 * applied: each active defect turns one verdict of the (always correct) {@link PacketDecoder} into the verdict a
 * device with that bug would reach. With no defect active this is exactly the decoder.
 */
final class ReceiveDefects {
    private final PacketDecoder decoder = new PacketDecoder();
    private final Crc32cTrailer crc = new Crc32cTrailer();
    private final boolean any;
    private final boolean acceptBadCrc;
    private final boolean strictMinorVersion;

    ReceiveDefects(final Defects defects) {
        this.any = !defects.isEmpty();
        this.acceptBadCrc = defects.has(Defect.ACCEPT_BAD_CRC);
        this.strictMinorVersion = defects.has(Defect.STRICT_MINOR_VERSION);
    }

    /** Decodes the packet into {@code out}; returns the status the endpoint acts on (counts and drops unless OK). */
    DecodeStatus decode(final ByteBuffer buffer, final int offset, final int length, final DecodedPacket out) {
        final DecodeStatus status = decoder.decode(buffer, offset, length, out);
        return any ? review(status, buffer, offset, length, out) : status;
    }

    private DecodeStatus review(
            final DecodeStatus status,
            final ByteBuffer buffer,
            final int offset,
            final int length,
            final DecodedPacket out) {
        if (status == DecodeStatus.BAD_CRC && acceptBadCrc) {
            // The device never compares the trailer: as if the CRC had matched.
            crc.write(buffer, offset, length);
            return decoder.decode(buffer, offset, length, out);
        }
        if (status == DecodeStatus.OK
                && strictMinorVersion
                && out.commonHeader().versionMinor() != 0) {
            return DecodeStatus.UNSUPPORTED_VERSION;
        }
        return status;
    }
}

package org.mrconf.wire;

/**
 * The common header fields of Table 5-1 as an immutable value, shared by the {@link Packet} records
 * (the opcode belongs to the record type, the reserved fields are always sent as zero). For tests
 * and tools; the hot path uses {@link CommonHeaderFlyweight}.
 *
 * @param version version byte, {@link WireConstants#VERSION_1_0} unless testing version handling
 * @param flags {@link PacketFlags} bits
 * @param destinationConnectionId the receiver's connection id (u32)
 * @param pathId 0 to 255
 * @param psn u32; its meaning depends on the opcode
 */
public record CommonHeader(int version, int flags, long destinationConnectionId, int pathId, long psn) {
    public CommonHeader {
        FieldWidth.u8(version, "version");
        FieldWidth.u16(flags, "flags");
        FieldWidth.u32(destinationConnectionId, "destination connection id");
        FieldWidth.u8(pathId, "path id");
        FieldWidth.u32(psn, "psn");
    }

    /** Version 1.0, no flags. */
    public static CommonHeader of(long destinationConnectionId, int pathId, long psn) {
        return new CommonHeader(WireConstants.VERSION_1_0, PacketFlags.NONE, destinationConnectionId, pathId, psn);
    }

    public CommonHeader withFlags(int newFlags) {
        return new CommonHeader(version, newFlags, destinationConnectionId, pathId, psn);
    }

    public CommonHeader withVersion(int newVersion) {
        return new CommonHeader(newVersion, flags, destinationConnectionId, pathId, psn);
    }

    public CommonHeader withPsn(long newPsn) {
        return new CommonHeader(version, flags, destinationConnectionId, pathId, newPsn);
    }

    /** Writes every field but the opcode into the flyweight. */
    void writeTo(HeaderFlyweight<?> header) {
        header.version(version)
                .flags(flags)
                .destinationConnectionId(destinationConnectionId)
                .pathId(pathId)
                .psn(psn);
    }

    static CommonHeader readFrom(HeaderFlyweight<?> header) {
        return new CommonHeader(
                header.version(), header.flags(), header.destinationConnectionId(), header.pathId(), header.psn());
    }
}

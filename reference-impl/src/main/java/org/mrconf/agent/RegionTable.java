package org.mrconf.agent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.mrconf.transport.AccessFlags;
import org.mrconf.transport.Endpoint;
import org.mrconf.transport.MemoryRegion;

/**
 * The memory regions the agent registered ({@code register_region}, {@code invalidate_region}, {@code
 * write_region}, {@code read_region}): keeps their bytes within the declared memory budget and checks every
 * buffer a request names against its region's bounds and access.
 */
final class RegionTable {
    /** A checked local buffer of a work request. */
    record LocalBuffer(int key, long address, int length) {}

    private final Endpoint endpoint;
    private final long memoryBudgetBytes;
    private final Map<Integer, Integer> regionLengths = new LinkedHashMap<>();
    private long memoryInUseBytes;

    RegionTable(final Endpoint endpoint, final long memoryBudgetBytes) {
        this.endpoint = endpoint;
        this.memoryBudgetBytes = memoryBudgetBytes;
    }

    /** {@code register_region}. */
    ObjectNode register(final Args args) {
        final long address = args.u64("address");
        final int length = (int) args.integer("length", 1, ControlAgent.MAX_MESSAGE_LENGTH);
        // A check of two arguments is made at the later one (control document, section 2, step 6): the extent.
        // A region may end exactly at 2^64 (its end wraps to 0, its last byte does not).
        if (address + length != 0 && Long.compareUnsigned(address + length, address) < 0) {
            throw RequestError.invalidArgument("args.length", "the region must not wrap the 64-bit address space");
        }
        int access = 0;
        final List<String> names = args.strings("access");
        for (int i = 0; i < names.size(); i++) {
            access |= switch (names.get(i)) {
                case "LOCAL_WRITE" -> AccessFlags.LOCAL_WRITE;
                case "REMOTE_WRITE" -> AccessFlags.REMOTE_WRITE;
                case "REMOTE_READ" -> AccessFlags.REMOTE_READ;
                default ->
                    throw RequestError.invalidArgument(
                            "args.access[" + i + "]",
                            "access must be LOCAL_WRITE, REMOTE_WRITE or REMOTE_READ, not '" + names.get(i) + "'");
            };
        }
        if (memoryInUseBytes + length > memoryBudgetBytes) {
            throw RequestError.conflict(
                    "args.length",
                    "regions would hold " + (memoryInUseBytes + length) + " bytes; this device's budget is "
                            + memoryBudgetBytes);
        }
        final MemoryRegion region = endpoint.registerRegion(address, length, access);
        regionLengths.put(region.key(), length);
        memoryInUseBytes += length;
        final ObjectNode result = Envelope.JSON.objectNode();
        result.put("key", Integer.toUnsignedLong(region.key()));
        return result;
    }

    /** {@code invalidate_region}. */
    ObjectNode invalidate(final Args args) {
        final MemoryRegion region = get(args, "key");
        endpoint.invalidateRegion(region.key());
        final Integer length = regionLengths.remove(region.key());
        memoryInUseBytes -= length == null ? 0 : length;
        return Envelope.JSON.objectNode();
    }

    /** {@code write_region}. */
    ObjectNode write(final Args args) {
        final MemoryRegion region = get(args, "key");
        final long address = args.u64("address");
        final byte[] data = args.base64("data", ControlAgent.MAX_REGION_IO_BYTES);
        requireInside(region, address, data.length, "args.data");
        region.memory().put(index(region, address), data);
        return Envelope.JSON.objectNode();
    }

    /** {@code read_region}. */
    ObjectNode read(final Args args) {
        final MemoryRegion region = get(args, "key");
        final long address = args.u64("address");
        final int length = (int) args.integer("length", 1, ControlAgent.MAX_REGION_IO_BYTES);
        requireInside(region, address, length, "args.length");
        final byte[] data = new byte[length];
        region.memory().get(index(region, address), data);
        final ObjectNode result = Envelope.JSON.objectNode();
        result.put("data", Base64.getEncoder().encodeToString(data));
        return result;
    }

    /**
     * The local buffer a work request names ({@code key}, {@code address}, {@code length}), inside a valid region
     * that the device may write when {@code written}.
     */
    LocalBuffer localBuffer(final Args args, final boolean written) {
        return localBuffer(args, written, ControlAgent.MAX_MESSAGE_LENGTH);
    }

    /**
     * {@link #localBuffer(Args, boolean)} no longer than {@code maxLength}: a receive is bound by the declared
     * {@code limits.maxMessageLength}, the longest message the device accepts (control document, {@code post_receive}).
     */
    LocalBuffer localBuffer(final Args args, final boolean written, final long maxLength) {
        final MemoryRegion region = get(args, "key");
        final long address = args.u64("address");
        final int length = (int) args.integer("length", 0, maxLength);
        requireInside(region, address, length, "args.length");
        if (written && (region.access() & AccessFlags.LOCAL_WRITE) == 0) {
            throw RequestError.invalidArgument("args.key", "the region lacks LOCAL_WRITE access");
        }
        return new LocalBuffer(region.key(), address, length);
    }

    /** Invalidates every region and frees the budget ({@code reset}). */
    void clear() {
        for (final Integer key : List.copyOf(regionLengths.keySet())) {
            endpoint.invalidateRegion(key);
        }
        regionLengths.clear();
        memoryInUseBytes = 0;
    }

    private MemoryRegion get(final Args args, final String name) {
        final int key = (int) args.u32(name);
        final MemoryRegion region = endpoint.region(key);
        if (region == null || !region.isValid()) {
            throw RequestError.notFound("args." + name, "no region with key " + Integer.toUnsignedString(key));
        }
        return region;
    }

    private static void requireInside(
            final MemoryRegion region, final long address, final long length, final String field) {
        if (!region.contains(address, length)) {
            throw RequestError.invalidArgument(
                    Long.compareUnsigned(address, region.address()) < 0
                                    || Long.compareUnsigned(address - region.address(), region.length()) > 0
                            ? "args.address"
                            : field,
                    length + " bytes at 0x" + Long.toHexString(address) + " are outside the region of "
                            + region.length() + " bytes at 0x" + Long.toHexString(region.address()));
        }
    }

    private static int index(final MemoryRegion region, final long address) {
        return (int) (address - region.address());
    }
}

package org.mrconf.transport;

import java.nio.ByteBuffer;

/**
 * A registered memory region: a key, a virtual base address, a length, access flags and the bytes
 * behind it. Remote packets reach it only through {@link #contains} and the access check.
 */
public final class MemoryRegion {
    private final int key;
    private final long address;
    private final int length;
    private final int access;
    private final ByteBuffer memory;
    private boolean valid = true;

    MemoryRegion(final int key, final long address, final ByteBuffer memory, final int access) {
        this.key = key;
        this.address = address;
        this.length = memory.capacity();
        this.access = access;
        this.memory = memory;
    }

    /** The key that names it in packets (rkey) and in local work requests (lkey). */
    public int key() {
        return key;
    }

    /** The virtual address of its first byte. */
    public long address() {
        return address;
    }

    public int length() {
        return length;
    }

    public int access() {
        return access;
    }

    /** Whether it has not been invalidated. */
    public boolean isValid() {
        return valid;
    }

    /** The bytes of the region; index 0 is {@link #address()}. Tests read and write through it. */
    public ByteBuffer memory() {
        return memory;
    }

    void invalidate() {
        valid = false;
    }

    /**
     * Whether [{@code start}, {@code start + byteCount}) lies inside the region, with 64-bit unsigned
     * addresses and no overflow (spec clause 11.1.3).
     */
    public boolean contains(final long start, final long byteCount) {
        if (byteCount < 0 || Long.compareUnsigned(start, address) < 0) {
            return false;
        }
        final long offset = start - address;
        return Long.compareUnsigned(offset, length) <= 0 && Long.compareUnsigned(byteCount, length - offset) <= 0;
    }

    /** The index into {@link #memory()} of an address that {@link #contains} accepted. */
    int indexOf(final long start) {
        return (int) (start - address);
    }

    @Override
    public String toString() {
        return "MemoryRegion{key=0x" + Integer.toHexString(key) + ", address=0x" + Long.toHexString(address)
                + ", length=" + length + ", access=" + access + ", valid=" + valid + "}";
    }
}

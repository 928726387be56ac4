package org.mrconf.explore;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.mrconf.dut.ConnectionSpec;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.DutInfo;
import org.mrconf.dut.PathState;
import org.mrconf.dut.RegionAccess;
import org.mrconf.dut.WorkRequest;

/**
 * A device's control channel that passes every request through and keeps every completion the device delivered and
 * the regions it registered, so explore judges the end state itself (exactly once, MSN order per stream) while replay
 * judges the vector's expectations over the same channel. Closing it does not close the device's channel.
 */
final class RecordingControl implements DutControl {
    /** A region the device registered: where and under which key. */
    record Region(long address, long length, long key) {}

    private final DutControl control;
    private final List<DutCompletion> completions = new ArrayList<>();
    private final List<Region> regions = new ArrayList<>();
    private final Duration latePatience;
    private byte[] finalRegion;
    private List<DutCompletion> finalCompletions = List.of();

    /** The bytes of the first region when replay reset the device, if it set one up. */
    synchronized Optional<byte[]> finalRegion() {
        return Optional.ofNullable(finalRegion);
    }

    /** Every completion the device delivered before replay reset it. */
    synchronized List<DutCompletion> finalCompletions() {
        return finalCompletions;
    }

    /**
     * @param control      the device's channel
     * @param latePatience how long to poll for late completions before replay's reset
     */
    RecordingControl(final DutControl control, final Duration latePatience) {
        this.control = control;
        this.latePatience = latePatience;
    }

    synchronized List<DutCompletion> completions() {
        return List.copyOf(completions);
    }

    synchronized List<Region> regions() {
        return List.copyOf(regions);
    }

    @Override
    public DutInfo hello() throws DutControlException {
        return control.hello();
    }

    @Override
    public void reset() throws DutControlException {
        // Replay resets the device after its checks: its end state is read first, with any late completion.
        if (!regions.isEmpty()) {
            final Region region = regions.get(0);
            final byte[] bytes = control.readRegion(region.key(), region.address(), (int) region.length());
            pollCompletions(64, latePatience);
            synchronized (this) {
                finalRegion = bytes;
                finalCompletions = List.copyOf(completions);
            }
        }
        synchronized (this) {
            completions.clear();
            regions.clear();
        }
        control.reset();
    }

    @Override
    public List<Integer> createConnection(final ConnectionSpec spec) throws DutControlException {
        return control.createConnection(spec);
    }

    @Override
    public void destroyConnection(final long localId) throws DutControlException {
        control.destroyConnection(localId);
    }

    @Override
    public long registerRegion(final long address, final long length, final Set<RegionAccess> access)
            throws DutControlException {
        final long key = control.registerRegion(address, length, access);
        synchronized (this) {
            regions.add(new Region(address, length, key));
        }
        return key;
    }

    @Override
    public void invalidateRegion(final long key) throws DutControlException {
        control.invalidateRegion(key);
    }

    @Override
    public void writeRegion(final long key, final long address, final byte[] data) throws DutControlException {
        control.writeRegion(key, address, data);
    }

    @Override
    public byte[] readRegion(final long key, final long address, final int length) throws DutControlException {
        return control.readRegion(key, address, length);
    }

    @Override
    public void postReceive(final WorkRequest receive) throws DutControlException {
        control.postReceive(receive);
    }

    @Override
    public void postWrite(
            final WorkRequest source, final long remoteAddress, final long remoteKey, final OptionalLong immediate)
            throws DutControlException {
        control.postWrite(source, remoteAddress, remoteKey, immediate);
    }

    @Override
    public void postSend(final WorkRequest source) throws DutControlException {
        control.postSend(source);
    }

    @Override
    public void postRead(final WorkRequest sink, final long remoteAddress, final long remoteKey)
            throws DutControlException {
        control.postRead(sink, remoteAddress, remoteKey);
    }

    @Override
    public List<DutCompletion> pollCompletions(final int max, final Duration wait) throws DutControlException {
        final List<DutCompletion> polled = control.pollCompletions(max, wait);
        synchronized (this) {
            completions.addAll(polled);
        }
        return polled;
    }

    @Override
    public Map<String, Long> readCounters() throws DutControlException {
        return control.readCounters();
    }

    @Override
    public Optional<List<PathState>> pathStatus(final long connection) throws DutControlException {
        return control.pathStatus(connection);
    }

    @Override
    public void close() {
        // The device's channel belongs to whoever opened the device.
    }
}

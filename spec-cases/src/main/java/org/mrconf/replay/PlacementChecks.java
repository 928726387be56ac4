package org.mrconf.replay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.DutControlException;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.TesterPeer;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.MalformedPacketException;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.Packet;

/**
 * Clause 8.1.1 ({@link Sidecar.Expect#placedWhenAcknowledged()}): a receiver reports a PSN as received only once the
 * packet's payload is placed. After each stimulus frame the replay waits for the DUT's answer to it, then reads,
 * through the control channel, the bytes of every WRITE whose PSN an ACK has since reported for the first time. The
 * read comes after the ACK arrived, so after the DUT sent it: the bytes must be there. No timer is raced; a DUT that
 * answers late only makes the replay wait. A WRITE a later frame overlaps is not judged (its bytes may have changed).
 */
final class PlacementChecks {
    /** A WRITE sent and not yet reported as received. */
    private record Pending(int frame, int path, long psn, long address, byte[] payload) {}

    private final TesterPeer peer;
    private final DutControl control;
    private final Map<String, PlaceholderRewriter.ActualRegion> regions;
    private final int mark;
    private final Duration patience;
    private final List<String> failures;
    private final List<Pending> pending = new ArrayList<>();
    private final List<Pending> sent = new ArrayList<>();

    PlacementChecks(
            final TesterPeer peer,
            final DutControl control,
            final Map<String, PlaceholderRewriter.ActualRegion> regions,
            final int mark,
            final Duration patience,
            final List<String> failures) {
        this.peer = peer;
        this.control = control;
        this.regions = regions;
        this.mark = mark;
        this.patience = patience;
        this.failures = failures;
    }

    /** After frame {@code frame} (the bytes as sent) went out: waits for its answer, then judges what ACKs report. */
    void afterSent(final int frame, final byte[] packet) throws DutControlException {
        final DataPacket write = writeOf(packet);
        if (write != null) {
            final Pending now = new Pending(
                    frame,
                    write.header().pathId(),
                    write.header().psn(),
                    write.remoteAddress() + write.messageOffset(), // the message's first byte, clause 5.2.3
                    write.payload());
            pending.removeIf(p -> overlaps(p, now)); // its bytes may change: judged by neither frame
            if (sent.stream().noneMatch(p -> p.path() == now.path() && p.psn() == now.psn())) {
                pending.add(now);
            }
            sent.add(now);
            awaitAnswer(now);
        }
        judge();
    }

    /** Judges the WRITEs that ACKs have reported since the last call (also once the DUT is quiet). */
    void judge() throws DutControlException {
        final List<AckPacket> acks = new ArrayList<>();
        for (final ReceivedPacket answer : peer.recorder().since(mark)) {
            answer.ack().ifPresent(acks::add);
        }
        for (final Iterator<Pending> it = pending.iterator(); it.hasNext(); ) {
            final Pending write = it.next();
            if (acks.stream()
                    .noneMatch(a -> a.header().pathId() == write.path() && PacketMatcher.covers(a, write.psn()))) {
                continue;
            }
            it.remove();
            final PlaceholderRewriter.ActualRegion region = regionOf(write);
            if (region == null) {
                continue; // outside every region: the DUT must refuse it, which other expectations judge
            }
            final byte[] placed = control.readRegion(region.key(), write.address(), write.payload().length);
            if (!Arrays.equals(placed, write.payload())) {
                failures.add(String.format(
                        "an ACK reported PSN %d of path %d (frame %d, a %d-byte WRITE at 0x%x) as received, and right"
                                + " after it the region did not hold the WRITE's bytes; 8.1.1: a PSN is reported only"
                                + " once its payload is placed",
                        write.psn(), write.path(), write.frame(), write.payload().length, write.address()));
            }
        }
    }

    /** Waits, at most the quiet window, for an ACK that reports the WRITE or a NACK of its PSN. */
    private void awaitAnswer(final Pending write) {
        final PacketMatcher answer = PacketMatcher.expect()
                .path(write.path())
                .where(
                        "an ACK reporting or a NACK naming PSN " + write.psn(),
                        p -> p.ack()
                                        .filter(a -> PacketMatcher.covers(a, write.psn()))
                                        .isPresent()
                                || p.nack()
                                        .filter(n -> n.header().psn() == write.psn())
                                        .isPresent());
        try {
            peer.recorder().awaitCount(mark, answer, 1, patience);
        } catch (final AssertionError unanswered) {
            // No answer yet: a later ACK may still report it, and is judged then.
        }
    }

    private PlaceholderRewriter.ActualRegion regionOf(final Pending write) {
        for (final PlaceholderRewriter.ActualRegion region : regions.values()) {
            final long offset = write.address() - region.address();
            if (offset >= 0 && offset + write.payload().length <= region.length()) {
                return region;
            }
        }
        return null;
    }

    private static boolean overlaps(final Pending a, final Pending b) {
        return a.address() < b.address() + b.payload().length && b.address() < a.address() + a.payload().length;
    }

    /** The WRITE or WRITE_WITH_IMMEDIATE a stimulus frame carries, or null. */
    private static DataPacket writeOf(final byte[] packet) {
        try {
            final Packet decoded = Packet.fromBytes(packet);
            if (decoded instanceof DataPacket data
                    && (data.opcode() == Opcode.WRITE || data.opcode() == Opcode.WRITE_WITH_IMMEDIATE)
                    && data.payloadLength() > 0) {
                return data;
            }
        } catch (final MalformedPacketException e) {
            // A deliberately malformed frame: the DUT drops it, and it reports nothing.
        }
        return null;
    }
}

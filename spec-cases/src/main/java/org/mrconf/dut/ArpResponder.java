package org.mrconf.dut;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.mrconf.pcap.MacAddress;

/**
 * ARP for the {@link RawEthernetWireLink} (Ethernet/IPv4 only): answers requests for the tester's address,
 * so that no kernel needs to own it, learns the DUT's MAC from any ARP frame the DUT sends, and resolves that
 * MAC on request. Fed every ARP frame by the link's capture thread; sends through the link.
 */
final class ArpResponder {
    static final int ETHERTYPE = 0x0806;
    static final int REQUEST = 1;
    static final int REPLY = 2;
    static final int FRAME_LENGTH = 60;

    /** Where the responder's frames go out: the link's raw send. */
    @FunctionalInterface
    interface FrameSender {
        void send(byte[] ethernetFrame) throws IOException;
    }

    private final MacAddress testerMac;
    private final byte[] testerIp;
    private final byte[] dutIp;
    private final boolean answerRequests;
    private final FrameSender sender;
    private final CompletableFuture<MacAddress> dutMac = new CompletableFuture<>();
    private final AtomicLong repliesSent = new AtomicLong();

    ArpResponder(
            final MacAddress testerMac,
            final InetAddress tester,
            final InetAddress dut,
            final boolean answerRequests,
            final FrameSender sender) {
        this.testerMac = testerMac;
        this.testerIp = tester.getAddress();
        this.dutIp = dut.getAddress();
        this.answerRequests = answerRequests;
        this.sender = sender;
    }

    /** Whether an Ethernet frame carries ARP. */
    static boolean isArp(final byte[] frame) {
        return frame.length >= 14 && u16(frame, 12) == ETHERTYPE;
    }

    /** Handles one captured ARP frame; ignores anything but Ethernet/IPv4 ARP. */
    void onFrame(final byte[] raw) throws IOException {
        // Ethernet/IPv4 ARP only: htype 1, ptype 0x0800, hlen 6, plen 4.
        if (raw.length < 42 || u16(raw, 14) != 1 || u16(raw, 16) != 0x0800 || raw[18] != 6 || raw[19] != 4) {
            return;
        }
        final int operation = u16(raw, 20);
        final MacAddress senderMac = MacAddress.of(raw, 22);
        final byte[] senderIp = Arrays.copyOfRange(raw, 28, 32);
        final byte[] targetIp = Arrays.copyOfRange(raw, 38, 42);
        if (Arrays.equals(senderIp, dutIp)) {
            // A reply to our request, or the DUT asking for the tester: either way we learn its MAC.
            dutMac.complete(senderMac);
        }
        if (operation == REQUEST && answerRequests && Arrays.equals(targetIp, testerIp)) {
            sender.send(frame(REPLY, senderMac, testerMac, targetIp, senderMac, senderIp));
            repliesSent.incrementAndGet();
        }
    }

    /**
     * The DUT's MAC: asks up to three times within {@code timeout}.
     *
     * @throws IOException naming the DUT and the interface if no reply came
     */
    MacAddress resolveDutMac(final Duration timeout, final String interfaceName) throws IOException {
        final long perTryMs = Math.max(1, timeout.toMillis() / 3);
        final byte[] request =
                frame(REQUEST, MacAddress.of(0xFFFF_FFFF_FFFFL), testerMac, testerIp, MacAddress.of(0), dutIp);
        for (int attempt = 0; attempt < 3; attempt++) {
            sender.send(request);
            try {
                return dutMac.get(perTryMs, TimeUnit.MILLISECONDS);
            } catch (final TimeoutException e) {
                // Ask again: the first request may have gone out before the DUT's interface was up.
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while resolving the DUT's MAC", e);
            } catch (final ExecutionException e) {
                throw new IOException("ARP resolution failed", e.getCause());
            }
        }
        throw new IOException("no ARP reply from the DUT at "
                + InetAddress.getByAddress(dutIp).getHostAddress() + " on '" + interfaceName + "' within "
                + timeout.toMillis() + " ms; give dutMac");
    }

    /** ARP replies sent for the tester's address. */
    long repliesSent() {
        return repliesSent.get();
    }

    /** An Ethernet ARP frame, padded to the 60-byte minimum. */
    static byte[] frame(
            final int operation,
            final MacAddress ethernetDestination,
            final MacAddress senderMac,
            final byte[] senderIp,
            final MacAddress targetMac,
            final byte[] targetIp) {
        final byte[] frame = new byte[FRAME_LENGTH];
        System.arraycopy(ethernetDestination.toBytes(), 0, frame, 0, 6);
        System.arraycopy(senderMac.toBytes(), 0, frame, 6, 6);
        putU16(frame, 12, ETHERTYPE);
        putU16(frame, 14, 1);
        putU16(frame, 16, 0x0800);
        frame[18] = 6;
        frame[19] = 4;
        putU16(frame, 20, operation);
        System.arraycopy(senderMac.toBytes(), 0, frame, 22, 6);
        System.arraycopy(senderIp, 0, frame, 28, 4);
        System.arraycopy(targetMac.toBytes(), 0, frame, 32, 6);
        System.arraycopy(targetIp, 0, frame, 38, 4);
        return frame;
    }

    private static int u16(final byte[] b, final int offset) {
        return ((b[offset] & 0xFF) << 8) | (b[offset + 1] & 0xFF);
    }

    private static void putU16(final byte[] b, final int offset, final int value) {
        b[offset] = (byte) (value >>> 8);
        b[offset + 1] = (byte) value;
    }
}

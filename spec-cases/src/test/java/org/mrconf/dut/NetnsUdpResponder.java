package org.mrconf.dut;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/**
 * A stand-in DUT for {@link RawEthernetWireLinkTest}, run inside a network namespace with {@code ip netns exec}
 * (a JVM cannot enter a namespace itself). It uses the JDK only, so it runs from the test-classes folder alone.
 *
 * <p>Arguments: bind address, bind port, reply address, reply port, reply source port. Every datagram it receives
 * is answered to the reply address and port, from the reply source port, marked ECT(0), with the payload
 * {@code [sender IPv4 (4 bytes)] [sender port (2 bytes)] [the datagram]}. It prints {@code READY} once bound and
 * exits when its standard input closes, or after a minute at the latest.
 */
public final class NetnsUdpResponder {
    private NetnsUdpResponder() {}

    public static void main(String[] args) throws Exception {
        InetSocketAddress bind = new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1]));
        InetSocketAddress reply = new InetSocketAddress(InetAddress.getByName(args[2]), Integer.parseInt(args[3]));
        int replySourcePort = Integer.parseInt(args[4]);
        Thread watchdog = new Thread(
                () -> {
                    try (InputStream in = System.in) {
                        while (in.read() >= 0) {
                            // Wait for the test to close our standard input.
                        }
                    } catch (IOException e) {
                        // Treat a broken pipe like a closed one.
                    }
                    System.exit(0);
                },
                "stdin-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        Thread deadline = new Thread(
                () -> {
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException e) {
                        return;
                    }
                    System.exit(3);
                },
                "deadline");
        deadline.setDaemon(true);
        deadline.start();
        try (DatagramChannel in = DatagramChannel.open().bind(bind);
                DatagramChannel out =
                        DatagramChannel.open().bind(new InetSocketAddress(bind.getAddress(), replySourcePort))) {
            out.setOption(StandardSocketOptions.IP_TOS, 0b10);
            System.out.println("READY");
            System.out.flush();
            ByteBuffer buffer = ByteBuffer.allocate(65_536);
            while (true) {
                buffer.clear();
                InetSocketAddress from = (InetSocketAddress) in.receive(buffer);
                buffer.flip();
                ByteBuffer answer = ByteBuffer.allocate(6 + buffer.remaining());
                answer.put(from.getAddress().getAddress())
                        .putShort((short) from.getPort())
                        .put(buffer)
                        .flip();
                out.send(answer, reply);
            }
        }
    }
}

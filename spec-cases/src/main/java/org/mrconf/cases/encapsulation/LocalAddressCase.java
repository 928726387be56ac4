package org.mrconf.cases.encapsulation;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.DutTraffic;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.ConnectionSpec;
import org.mrconf.dut.DutControlException;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.ReceivedPacket;

/**
 * The local address given at setup (clauses 4.2.1 and 4.2.3): the DUT accepts the address the tester
 * sends to, sends every packet of the connection from it (data as sender, ACKs as receiver), and refuses an address
 * that is not its own. The foreign address is one of the documentation ranges (RFC 5737, RFC 3849), which no device
 * under test owns.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Local address at setup")
class LocalAddressCase {
    private static final long OTHER_DUT_CONNECTION = 0x0005_0005L;
    private static final long OTHER_TESTER_CONNECTION = 0x0006_0006L;

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("with a local address given at setup every packet leaves from it; an address not the DUT's is refused")
    @Verifies("4.2.3")
    @Verifies("4.2.1")
    void everyPacketLeavesFromTheLocalAddress(final DeviceUnderTest dut) throws Exception {
        final InetAddress own = dut.link().dutAddress().getAddress();
        final Testbed testbed;
        try {
            testbed = Testbed.open(dut, 2, 1, spec -> spec.withLocalAddress(own));
        } catch (final DutControlException refused) {
            throw new AssertionError(
                    "4.2.3: the DUT refused as local address " + own.getHostAddress()
                            + ", the address the tester sends to: " + refused.getMessage(),
                    refused);
        }
        try (testbed) {
            final int mark = testbed.peer().mark();
            final int payload = testbed.connection().maxPayload(org.mrconf.wire.Opcode.WRITE);
            DutTraffic.write(testbed, 0, 1, 2 * payload, OptionalLong.empty());
            testbed.connection().sendNew(testbed.write(1, Testbed.BASE, testbed.key(), new byte[64]), 1);
            testbed.peer().await(mark, DutTraffic.ackOf(1).cumulativePsn(1), Testbed.WAIT);
            final List<ReceivedPacket> sent = testbed.peer()
                    .recorder()
                    .matching(mark, PacketMatcher.expect().connection(Testbed.TESTER_CONNECTION));
            assertThat(sent).as("the DUT's packets on the connection").isNotEmpty();
            for (final ReceivedPacket packet : sent) {
                assertThat(packet.captured().sourceAddress())
                        .as("4.2.3: the source address of %s, given %s at setup", packet, own.getHostAddress())
                        .isEqualTo(own);
            }

            final InetAddress foreign = own instanceof Inet6Address
                    ? InetAddress.getByName("2001:db8::4d52")
                    : InetAddress.getByAddress(new byte[] {(byte) 192, 0, 2, 77});
            final ConnectionSpec other = testbed.connection()
                    .spec()
                    .withIds(OTHER_DUT_CONNECTION, OTHER_TESTER_CONNECTION)
                    .withLocalAddress(foreign);
            boolean accepted;
            try {
                testbed.control().createConnection(other);
                accepted = true;
            } catch (final DutControlException refused) {
                accepted = false;
            }
            if (accepted) {
                testbed.control().destroyConnection(OTHER_DUT_CONNECTION);
            }
            assertThat(accepted)
                    .as(
                            "4.2.3: a setup naming %s, a documentation address that is not the DUT's, as local"
                                    + " address is refused",
                            foreign.getHostAddress())
                    .isFalse();
        }
    }
}

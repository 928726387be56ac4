package org.mrconf.softdut;

/** Runs a soft DUT on ephemeral loopback ports until SIGTERM; the lifecycle test starts it as a process. */
public final class SoftDutMain {
    private SoftDutMain() {}

    public static void main(final String[] args) throws Exception {
        final SoftDut dut =
                SoftDut.start(SoftDutOptions.builder().udpPort(0).controlPort(0).build());
        System.out.println("listening udp=" + dut.udpPort() + " control=" + dut.controlPort());
        System.out.flush();
        dut.runUntilSignal();
    }
}

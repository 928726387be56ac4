package org.mrconf.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.mrconf.agent.ControlServer;
import org.mrconf.defect.Defects;
import org.mrconf.devices.DeviceCheck;
import org.mrconf.softdut.SoftDut;
import org.mrconf.softdut.SoftDutOptions;
import org.mrconf.wire.WireConstants;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code metaroce dut}: devices under test the suite ships. {@code dut serve} runs the reference soft DUT
 * on UDP with the DUT control protocol on TCP, in the foreground, until SIGINT or SIGTERM.
 */
@Command(
        name = "dut",
        mixinStandardHelpOptions = true,
        description = "Devices under test: serve the reference soft DUT, or check that a device is ready for a run.",
        subcommands = {DutCommand.Serve.class, DutCommand.Check.class})
public final class DutCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code metaroce dut check}: is the device ready for a run? One actionable line per problem. */
    @Command(
            name = "check",
            mixinStandardHelpOptions = true,
            description = {
                "Check in seconds that a device is ready for a run.",
                "It checks the control channel (reachable, hello, protocol and wire version, token, claims), the"
                        + " agent's answers to the bad requests of the control document's error table (each one that"
                        + " differs is a problem), and the wire link (ARP on raw Ethernet, a PROBE answered, a datagram"
                        + " of the declared MTU). Resets the device, as a run does.",
                "Exit code 0 when ready, 1 when a problem was found, 2 for a bad --dut."
            })
    static final class Check implements java.util.concurrent.Callable<Integer> {
        @Option(
                names = "--dut",
                required = true,
                paramLabel = "TARGET",
                description = "The device: udp://HOST:PORT[?control=P&token=T], iface:NAME?dut=IP&tester=IP, or a"
                        + " declaration file.")
        String target;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            final PrintWriter out = spec.commandLine().getOut();
            DutForms.requireFileOrShortcut(target);
            final org.mrconf.dut.DutTarget parsed = org.mrconf.dut.DutTarget.parse(target);
            final org.mrconf.dut.DeviceDeclaration profile = org.mrconf.devices.OpenDevice.profileOf(parsed);
            out.println("Checking " + target + " ...");
            final DeviceCheck check = new DeviceCheck(out, new org.mrconf.catalogue.CatalogueLoader().loadBundled());
            check.check(profile, target);
            out.println(
                    check.problems().isEmpty()
                            ? "Ready for ./metaroce run --dut " + target
                            : check.problems().size() + " problem(s): fix them, then run dut check again");
            out.flush();
            return check.problems().isEmpty() ? 0 : 1;
        }
    }

    /** {@code metaroce dut serve}: the soft DUT as a foreground process. */
    @Command(
            name = "serve",
            mixinStandardHelpOptions = true,
            description = {
                "Serve the reference soft DUT until Ctrl-C or SIGTERM.",
                "It speaks MetaRoCE over UDP and the DUT control protocol (docs/dut-control-protocol.md) over TCP.",
                "Off loopback the control protocol requires a token of at least 16 characters."
            })
    static final class Serve implements Callable<Integer> {
        private static final Pattern DOTTED = Pattern.compile("[0-9.]+");

        @Option(
                names = "--bind",
                defaultValue = "127.0.0.1",
                paramLabel = "ADDRESS",
                description = "Address to listen on, UDP and TCP (default: ${DEFAULT-VALUE}).")
        String bind;

        @Option(
                names = "--port",
                defaultValue = "" + WireConstants.DEFAULT_UDP_PORT,
                paramLabel = "PORT",
                description = "MetaRoCE UDP port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
        int port;

        @Option(
                names = "--control-port",
                defaultValue = "" + ControlServer.DEFAULT_PORT,
                paramLabel = "PORT",
                description = "Control protocol TCP port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
        int controlPort;

        @Option(
                names = "--token",
                defaultValue = "${env:METAROCE_DUT_TOKEN}",
                paramLabel = "TOKEN",
                description = "Token every control request must carry (default: $METAROCE_DUT_TOKEN, else none).")
        String token;

        @Option(
                names = "--entropy-ports",
                defaultValue = "8",
                paramLabel = "N",
                description = "UDP sockets packets leave from (default: ${DEFAULT-VALUE}). The source port on the "
                        + "wire is the path's entropy (spec 4.1.4): create_connection and path_status report these "
                        + "ports, and a retransmission timeout moves the path to another of them (spec 6.6.4). "
                        + "ACKs leave from the pool too, so spec 8.1.6 is not claimed; 1 socket cannot re-path, so "
                        + "multipath is then not claimed.")
        int entropyPorts;

        @Option(
                names = "--mtu",
                paramLabel = "BYTES",
                description = "Largest IP datagram the DUT sends (default: 4176).")
        Integer mtu;

        @Option(
                names = "--defect",
                split = ",",
                paramLabel = "NAME",
                description =
                        "Commit a deliberate non-conformance from the reference's defect catalogue "
                                + "(self-validation; hello reports it); repeat or comma-separate; `metaroce selftest --list` lists them.")
        List<String> defects = List.of();

        @Spec
        CommandSpec spec;

        private volatile SoftDut dut;

        @Override
        public Integer call() {
            final CommandLine commandLine = spec.commandLine();
            final InetAddress address = bindAddress();
            final SoftDutOptions options;
            try {
                final SoftDutOptions.Builder builder = SoftDutOptions.builder()
                        .bindAddress(address)
                        .udpPort(port)
                        .controlPort(controlPort)
                        .token(token)
                        .entropyPorts(entropyPorts);
                if (mtu != null) {
                    builder.mtu(mtu);
                }
                final Defects active = Defects.parse(String.join(",", defects));
                builder.endpoint(
                        builder.build().endpoint().toBuilder().defects(active).build());
                options = builder.build();
                dut = SoftDut.start(options);
            } catch (final IllegalArgumentException e) {
                throw new ParameterException(commandLine, e.getMessage(), e);
            } catch (final IOException e) {
                throw new ParameterException(
                        commandLine,
                        "cannot listen on " + address.getHostAddress() + " (UDP " + port + ", TCP " + controlPort
                                + "): " + e.getMessage(),
                        e);
            }
            final PrintWriter out = commandLine.getOut();
            final String host = address.getHostAddress();
            out.println("metaroce dut: soft DUT listening on udp " + host + ":" + dut.udpPort()
                    + ", control protocol on tcp " + host + ":" + dut.controlPort()
                    + (token == null ? "" : " (token required)")
                    + (options.endpoint().defects().isEmpty()
                            ? ""
                            : "; DELIBERATE DEFECTS: " + options.endpoint().defects())
                    + "; Ctrl-C stops it");
            out.flush();
            dut.runUntilSignal();
            return 0;
        }

        /** Stops a running {@link #call}, as a signal would; for tests. */
        void stop() {
            final SoftDut running = dut;
            if (running != null) {
                running.close();
            }
        }

        /** The bind address: a literal, or a host name (looked up); dotted numbers must be a valid IPv4 literal. */
        private InetAddress bindAddress() {
            try {
                if (DOTTED.matcher(bind).matches()) {
                    final String[] parts = bind.split("\\.", -1);
                    final byte[] bytes = new byte[4];
                    if (parts.length != 4) {
                        throw new UnknownHostException();
                    }
                    for (int i = 0; i < 4; i++) {
                        final int octet =
                                parts[i].isEmpty() || parts[i].length() > 3 ? 256 : Integer.parseInt(parts[i]);
                        if (octet > 255) {
                            throw new UnknownHostException();
                        }
                        bytes[i] = (byte) octet;
                    }
                    return InetAddress.getByAddress(bytes);
                }
                return InetAddress.getByName(bind);
            } catch (final UnknownHostException e) {
                throw new ParameterException(
                        spec.commandLine(), "--bind '" + bind + "' is not an IP address or a known host name");
            }
        }
    }
}

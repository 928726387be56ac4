package org.mrconf.devices;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.Testbed;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.ControlEndpoint;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.DutErrorCode;
import org.mrconf.dut.DutInfo;
import org.mrconf.dut.JsonLineControlClient;
import org.mrconf.dut.LineTransport;
import org.mrconf.dut.RawEthernetOptions;
import org.mrconf.dut.RawEthernetWireLink;
import org.mrconf.dut.TcpLineTransport;
import org.mrconf.dut.UdpWireLink;
import org.mrconf.dut.WireLink;
import org.mrconf.embedded.EmbeddedReferenceDut;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.wire.Opcode;

/**
 * The checks of {@code metaroce dut check}: the control channel (reachable, {@code hello}, protocol and wire
 * version, token, claims), the agent's answers to the bad requests of the control document's error table
 * ({@link AgentErrorCheck}) and the wire link (opened, ARP on raw Ethernet, a PROBE answered, a datagram of the
 * declared MTU carried), each in seconds, each problem one line that says what to change.
 */
public final class DeviceCheck {
    static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** The agent check sends a line of over 1 MiB, which a remote agent reads and discards before it answers. */
    static final Duration AGENT_RESPONSE_TIMEOUT = Duration.ofSeconds(10);

    private final PrintWriter out;
    private final ClauseCatalogue catalogue;
    private final List<String> problems = new ArrayList<>();

    public DeviceCheck(final PrintWriter out, final ClauseCatalogue catalogue) {
        this.out = out;
        this.catalogue = catalogue;
    }

    /** The problems found, one actionable sentence each; empty when the device is ready for a run. */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    public void check(final DeviceDeclaration profile, final String name) {
        if (profile.link().kind() == DeviceDeclaration.LinkKind.EMBEDDED) {
            try (EmbeddedReferenceDut embedded = EmbeddedReferenceDut.start()) {
                ok("control channel: the embedded reference, in this process");
                final DeviceUnderTest device = embedded.device(profile);
                final Optional<DutInfo> info = checkHello(profile, device.control());
                if (info.isPresent()) {
                    checkAgent(
                            embedded.controlLines(),
                            new AgentErrorCheck.Agent(
                                    Optional.empty(),
                                    false,
                                    info.get().claims(Profile.READ),
                                    new InetSocketAddress(
                                            device.link().testerAddress(),
                                            device.link().testerPort())));
                }
                checkWire(device);
            }
            return;
        }
        final ControlEndpoint endpoint = profile.control().orElseThrow();
        final String where = endpoint.host() + ":" + endpoint.port();
        try (DutControl control = connect(endpoint, where)) {
            if (control == null) {
                return;
            }
            final Optional<DutInfo> info = checkHello(profile, control);
            if (info.isEmpty()) {
                return;
            }
            checkAgent(endpoint, profile, info.get());
            final Optional<WireLink> link = openLink(profile);
            if (link.isEmpty()) {
                return;
            }
            try (WireLink opened = link.get()) {
                checkWire(new DeviceUnderTest(name, control, opened, profile));
            } catch (final Exception e) {
                problem("wire link: " + e.getMessage());
            }
        }
    }

    private DutControl connect(final ControlEndpoint endpoint, final String where) {
        try {
            final DutControl control = JsonLineControlClient.connect(endpoint, TIMEOUT, TIMEOUT);
            ok("control channel: connected to " + where);
            return control;
        } catch (final DutControlException e) {
            final String detail = e.getMessage().toLowerCase(Locale.ROOT);
            if (detail.contains("refused")) {
                problem("wrong port: nothing listens on " + where + " (control). Check control.host and control.port"
                        + " in the profile, or ?control=PORT (the soft DUT's default is 4797); is the agent running?");
            } else if (detail.contains("timed out") || detail.contains("timeout")) {
                problem("no answer from " + where + " within " + TIMEOUT.toMillis() + " ms: a firewall drops the"
                        + " connection, or the host is wrong");
            } else {
                problem("cannot reach the control agent at " + where + ": " + e.getMessage());
            }
            return null;
        }
    }

    private Optional<DutInfo> checkHello(final DeviceDeclaration profile, final DutControl control) {
        final DutInfo info;
        try {
            info = control.hello();
        } catch (final DutControlException e) {
            if (e.code() == DutErrorCode.UNAUTHORIZED) {
                problem(
                        profile.control().flatMap(ControlEndpoint::token).isPresent()
                                ? "token refused: the agent rejected the profile's control.token; give the token the agent"
                                        + " was started with (metaroce dut serve --token, or $METAROCE_DUT_TOKEN)"
                                : "token refused: the agent requires a token; set control.token in the profile (or"
                                        + " ?token= in the udp:// target)");
            } else if (e.code() == DutErrorCode.UNSUPPORTED_VERSION
                    || e.field()
                            .filter(f -> f.equals("v") || f.equals("result.protocol"))
                            .isPresent()) {
                problem("version skew: the agent does not speak DUT control protocol version "
                        + JsonLineControlClient.PROTOCOL_VERSION + " (" + e.detail() + "); update the agent");
            } else if (e.code() == DutErrorCode.TRANSPORT) {
                problem("hello: the agent did not answer within " + TIMEOUT.toMillis() + " ms (" + e.detail()
                        + "): is the port a MetaRoCE control agent, and is it hung?");
            } else {
                problem("hello failed: " + e.getMessage());
            }
            return Optional.empty();
        }
        ok("hello: " + info.implementation().vendor() + " "
                + info.implementation().model() + ", firmware "
                + info.implementation().firmware() + ", control protocol " + info.protocol()
                + (profile.control().flatMap(ControlEndpoint::token).isPresent() ? ", token accepted" : ""));
        if (!info.wireVersion().equals(catalogue.wireVersion())) {
            problem("version skew: the device speaks MetaRoCE wire version " + info.wireVersion() + ", this suite "
                    + "tests " + catalogue.wireVersion() + " (" + catalogue.spec() + " " + catalogue.specVersion()
                    + ")");
        } else {
            ok("wire version " + info.wireVersion());
        }
        profile.claimsDisagreement(info)
                .ifPresentOrElse(
                        d -> note("claims: " + d + "; make conformance.profiles and the agent agree"),
                        () -> ok("claims: hello and the profile both claim "
                                + profile.conformance().profiles().stream()
                                        .map(p -> p.specName())
                                        .sorted()
                                        .toList()));
        if (info.udpPort() != profile.parameters().dut().getPort()) {
            problem("wrong port: the device's hello says it speaks MetaRoCE on UDP port " + info.udpPort()
                    + " but the profile's parameters.dut.udpPort is "
                    + profile.parameters().dut().getPort());
        }
        if (profile.parameters().mtu() > info.limits().mtu()) {
            problem("MTU mismatch: the profile's parameters.mtu is "
                    + profile.parameters().mtu() + " but the" + " device's hello says its limit is "
                    + info.limits().mtu() + "; lower parameters.mtu");
        }
        return Optional.of(info);
    }

    /** The agent's error answers over a TCP connection of their own, against the control document's table. */
    private void checkAgent(final ControlEndpoint endpoint, final DeviceDeclaration profile, final DutInfo info) {
        InetSocketAddress tester;
        try {
            tester = OpenDevice.testerAddress(profile);
        } catch (final IOException | RuntimeException e) {
            tester = profile.parameters().tester();
        }
        try (LineTransport lines =
                TcpLineTransport.connect(endpoint.host(), endpoint.port(), TIMEOUT, AGENT_RESPONSE_TIMEOUT)) {
            checkAgent(lines, new AgentErrorCheck.Agent(endpoint.token(), true, info.claims(Profile.READ), tester));
        } catch (final IOException e) {
            problem("agent error table: cannot open a second control connection: " + e.getMessage());
        }
    }

    /**
     * Sends the bad requests of the control document's error table ({@link ControlErrorTable}); one line per row,
     * a problem per answer that differs from the document.
     */
    private void checkAgent(final LineTransport lines, final AgentErrorCheck.Agent agent) {
        final List<AgentErrorCheck.Outcome> outcomes = AgentErrorCheck.run(lines, agent);
        int asDocumented = 0;
        final Map<String, List<String>> notSent = new LinkedHashMap<>();
        for (final AgentErrorCheck.Outcome outcome : outcomes) {
            final String row = "agent error table: " + outcome.row().name();
            switch (outcome.status()) {
                case OK -> {
                    asDocumented++;
                    ok(row + ": " + outcome.detail());
                }
                case DIFFERS ->
                    problem(row + " DIFFERS from docs/dut-control-protocol.md ("
                            + outcome.row().where() + "): " + outcome.detail() + "; fix the agent");
                case NOT_SENT ->
                    notSent.computeIfAbsent(outcome.detail(), why -> new ArrayList<>())
                            .add(outcome.row().name());
            }
        }
        notSent.forEach((why, rows) -> note("agent error table: not sent, " + why + ": " + String.join("; ", rows)));
        final int sent =
                outcomes.size() - notSent.values().stream().mapToInt(List::size).sum();
        if (asDocumented == sent) {
            ok("agent error table: " + asDocumented + " of " + sent + " bad requests answered as the control"
                    + " document says");
        }
    }

    private Optional<WireLink> openLink(final DeviceDeclaration profile) {
        final InetSocketAddress dut = profile.parameters().dut();
        try {
            final InetSocketAddress tester = OpenDevice.testerAddress(profile);
            final WireLink link = profile.link().kind() == DeviceDeclaration.LinkKind.RAW
                    ? RawEthernetWireLink.open(
                            RawEthernetOptions.of(profile.link().interfaceName().orElseThrow(), tester, dut))
                    : UdpWireLink.open(dut, tester, System::nanoTime);
            ok("wire link: " + profile.link().kind().jsonName() + " to "
                    + dut.getAddress().getHostAddress() + ":" + dut.getPort());
            return Optional.of(link);
        } catch (final IOException | RuntimeException e) {
            final String message = String.valueOf(e.getMessage());
            if (message.contains("ARP")) {
                problem("no ARP answer from " + dut.getAddress().getHostAddress() + " on "
                        + profile.link().interfaceName().orElse("?") + ": check parameters.dut.address, the cable"
                        + " and the DUT's interface, or give link.dutMac");
            } else {
                problem("cannot open the wire link to " + dut + ": " + message);
            }
            return Optional.empty();
        }
    }

    private void checkWire(final DeviceUnderTest device) {
        final int mtu = device.profile().parameters().mtu();
        try (Testbed testbed = Testbed.open(device, 1, 1)) {
            final int mark = testbed.peer().mark();
            final long stamp = 0x5EED;
            testbed.peer()
                    .send(PacketBuilder.probe()
                            .connection(Testbed.DUT_CONNECTION)
                            .path(0)
                            .psn(0)
                            .transmitTimestamp(stamp));
            try {
                testbed.peer().await(mark, PacketMatcher.expect().ack().path(0).echoedTimestamp(stamp), TIMEOUT);
                ok("PROBE answered with an ACK");
            } catch (final AssertionError e) {
                final InetSocketAddress dut = device.link().dutAddress();
                problem("no answer to a PROBE within " + TIMEOUT.toMillis() + " ms: nothing answers MetaRoCE on "
                        + dut.getAddress().getHostAddress() + ":" + dut.getPort() + "; check parameters.dut"
                        + " (address and udpPort) and any firewall between tester and DUT");
                return;
            }
            final byte[] payload = Testbed.randomBytes(testbed.connection().maxPayload(Opcode.WRITE), 1);
            final int full = testbed.peer().mark();
            testbed.connection().sendNew(testbed.write(0, Testbed.BASE, testbed.key(), payload), 0);
            try {
                testbed.peer().await(full, PacketMatcher.expect().ack().path(0).covers(0), TIMEOUT);
                ok("MTU: a WRITE of " + mtu + " bytes (parameters.mtu) reached the DUT and was acknowledged");
            } catch (final AssertionError e) {
                problem("MTU mismatch: a PROBE is answered but a WRITE of " + mtu + " bytes (parameters.mtu) is not;"
                        + " the link or the DUT carries less: lower parameters.mtu or raise the interface MTU");
            }
        } catch (final DutControlException e) {
            problem("setting up a test connection failed: " + e.getMessage());
        } catch (final IOException e) {
            problem("wire link: " + e.getMessage());
        } catch (final RuntimeException e) {
            problem("setting up a test connection failed: " + e);
        }
    }

    private void ok(final String what) {
        out.println("  ok    " + what);
        out.flush();
    }

    private void note(final String what) {
        out.println("  note  " + what);
        out.flush();
    }

    private void problem(final String what) {
        problems.add(what);
        out.println("  FAIL  " + what);
        out.flush();
    }
}

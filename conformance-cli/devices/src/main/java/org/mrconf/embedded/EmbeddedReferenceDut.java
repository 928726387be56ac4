package org.mrconf.embedded;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Optional;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.defect.Defects;
import org.mrconf.dut.Datagram;
import org.mrconf.dut.DeclarationException;
import org.mrconf.dut.DeclarationLoader;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.JsonLineControlClient;
import org.mrconf.dut.LineTransport;
import org.mrconf.dut.QueueWireLink;
import org.mrconf.pcap.Ecn;
import org.mrconf.softdut.SoftDut;
import org.mrconf.softdut.SoftDutOptions;
import org.mrconf.transport.EndpointConfig;
import org.mrconf.variant.LegalChoice;
import org.mrconf.wire.WireConstants;

/**
 * The reference soft DUT running in this process, reached exactly as a vendor NIC is: control requests go
 * through the control-protocol client as JSON lines (no TCP), packets go through a queue link as bytes
 * (no sockets), or, in a configuration that carries frames, as whole Ethernet frames. The addresses are labels on
 * the in-memory link; nothing is sent on any network.
 */
public final class EmbeddedReferenceDut implements AutoCloseable {
    /**
     * The tester's MetaRoCE port: deliberately not the default 4796, so that a DUT that ignores the configured
     * destination port (spec clause 4.1.3) is seen doing so.
     */
    private static final int TESTER_PORT = 54796;

    private final SoftDut dut;
    private final QueueWireLink link;
    private final JsonLineControlClient control;
    private final ReferenceConfiguration configuration;
    /** The legal choice (a variant or sampled declarations) it runs, if any: then it is judged by its {@code hello}. */
    private final Optional<LegalChoice> variant;
    /** The labels of the two ends on the in-memory link (IPv4 or, in the IPv6 configuration, IPv6). */
    private final InetAddress dutAddress;

    private final InetAddress testerAddress;

    private EmbeddedReferenceDut(
            final SoftDutOptions options,
            final ReferenceConfiguration configuration,
            final Optional<LegalChoice> variant) {
        this.configuration = configuration;
        this.variant = variant;
        this.dutAddress = configuration.dutAddress();
        this.testerAddress = configuration.testerAddress();
        final InetSocketAddress dutPort = new InetSocketAddress(dutAddress, WireConstants.DEFAULT_UDP_PORT);
        final InetSocketAddress testerPort = new InetSocketAddress(testerAddress, TESTER_PORT);
        final SoftDut[] device = new SoftDut[1];
        if (configuration.carriesFrames()) {
            this.link = QueueWireLink.carryingFrames(
                    testerPort, dutPort, frame -> device[0].deliverFrame(frame), System::nanoTime);
            this.dut = SoftDut.inMemoryFrames(options, link::deliverFrameFromDut);
        } else {
            this.link = new QueueWireLink(
                    testerPort,
                    dutPort,
                    datagram -> device[0].deliver(
                            datagram.payload(),
                            datagram.source().getAddress(),
                            datagram.source().getPort(),
                            datagram.ecn().codepoint()),
                    System::nanoTime);
            this.dut = SoftDut.inMemory(
                    options,
                    (packet, destination, destinationPort, sourcePort, ecn) -> link.deliverFromDut(new Datagram(
                            packet,
                            new InetSocketAddress(dutAddress, sourcePort),
                            new InetSocketAddress(destination, destinationPort),
                            Ecn.fromCodepoint(ecn))));
        }
        device[0] = dut;
        // Same host, same clock (System.nanoTime): the reference's late wake-ups are the host's stalls.
        dut.onLateWakeups(link::deviceStalled);
        this.control = new JsonLineControlClient(dut::control);
    }

    /** Starts the clean embedded reference with its default options. */
    public static EmbeddedReferenceDut start() {
        return start(Defects.NONE);
    }

    /** Starts the embedded reference committing {@code defects} (self-validation), with its default options. */
    public static EmbeddedReferenceDut start(final Defects defects) {
        return start(defects, ReferenceConfiguration.STANDARD);
    }

    /** A clean reference (no defect) in {@code configuration}. */
    public static EmbeddedReferenceDut start(final ReferenceConfiguration configuration) {
        return start(Defects.of(), configuration);
    }

    /** Starts the embedded reference in {@code configuration}, committing {@code defects}. */
    public static EmbeddedReferenceDut start(final Defects defects, final ReferenceConfiguration configuration) {
        return start(defects, configuration, Optional.empty());
    }

    /**
     * Starts the clean reference in its standard configuration taking {@code variant}'s legal choice; its
     * {@link #device()} is judged by what its {@code hello} declares (clause 12.1.5), as a device without a profile
     * file is, since the variant changes what it declares.
     */
    public static EmbeddedReferenceDut start(final LegalChoice variant) {
        return start(Defects.NONE, ReferenceConfiguration.STANDARD, Optional.of(variant));
    }

    /**
     * The clean reference taking the legal variant named {@code name} ({@code reference?variant=NAME}), judged by what
     * its {@code hello} declares.
     *
     * @throws IllegalArgumentException when no variant of the catalogue has that name (the message lists them)
     */
    public static EmbeddedReferenceDut startVariant(final String name) {
        return start(org.mrconf.variant.Variant.fromName(name));
    }

    /**
     * Checks that a legal variant of the catalogue is named {@code name}.
     *
     * @throws IllegalArgumentException when none is (the message lists them)
     */
    public static void checkVariant(final String name) {
        org.mrconf.variant.Variant.fromName(name);
    }

    private static EmbeddedReferenceDut start(
            final Defects defects, final ReferenceConfiguration configuration, final Optional<LegalChoice> variant) {
        final SoftDutOptions defaults = SoftDutOptions.builder().build();
        final EndpointConfig configured = configuration.endpoint(defaults.endpoint());
        return new EmbeddedReferenceDut(
                SoftDutOptions.builder()
                        // In memory nothing is bound: the address only labels the DUT's end (hello, IPv6 or not).
                        .bindAddress(configuration.dutAddress())
                        .udpPort(WireConstants.DEFAULT_UDP_PORT)
                        .controlPort(-1)
                        .endpoint(variant.map(v -> v.configure(configured)).orElse(configured).toBuilder()
                                .defects(defects)
                                .build())
                        .build(),
                configuration,
                variant);
    }

    /**
     * The device as the conformance cases see it, with the reference's bundled declarations, or, for a variant, with
     * what its {@code hello} declares.
     */
    public DeviceUnderTest device() {
        if (variant.isPresent()) {
            try {
                return new DeviceUnderTest(
                        "embedded reference (" + variant.get().label() + ")",
                        control,
                        link,
                        profile().declaredBy(control.hello()));
            } catch (final DutControlException e) {
                throw new IllegalStateException("the embedded reference did not answer hello: " + e.getMessage(), e);
            }
        }
        final Defects defects = dut.options().endpoint().defects();
        final String name = (configuration == ReferenceConfiguration.STANDARD
                        ? "embedded reference"
                        : "embedded reference (" + configuration.targetName() + ")")
                + (defects.isEmpty() ? "" : " with defects " + defects);
        return new DeviceUnderTest(name, control, link, configuration.declarations(profile()));
    }

    /**
     * The device judged by {@code declared} instead (claims, optional clauses, timers), with the in-memory link and
     * its addresses: e.g. a profile that claims only core makes the READ cases not applicable.
     */
    public DeviceUnderTest device(final DeviceDeclaration declared) {
        final DeviceDeclaration embedded = profile();
        return new DeviceUnderTest(
                "embedded reference",
                control,
                link,
                declared.withLink(DeviceDeclaration.Link.embedded())
                        .withControl(Optional.empty())
                        .withParameters(declared.parameters()
                                .withDut(embedded.parameters().dut())
                                .withTester(embedded.parameters().tester())));
    }

    /**
     * The agent's control lines, straight to it: as {@link #device()}'s control client sends them, without TCP (so
     * without section 1's 1 MiB line limit). For {@code dut check}'s check of the agent's error answers.
     */
    public LineTransport controlLines() {
        return dut::control;
    }

    /**
     * The reference's declarations (the bundled {@code reference-udp} profile: the embedded reference runs the same
     * soft DUT with the same timers) with the in-memory link and its addresses.
     */
    private DeviceDeclaration profile() {
        try {
            final DeviceDeclaration bundled = new DeclarationLoader().loadBundled("reference-udp");
            // The in-memory link keeps each packet's own source port, so the embedded reference implements 8.1.6
            // (its hello says so), which the UDP soft DUT's socket pool cannot: the declarations must agree (12.1.5).
            final DeviceDeclaration.Conformance udp = bundled.conformance();
            final java.util.List<String> optional = new java.util.ArrayList<>(udp.optionalClauses());
            optional.add("8.1.6");
            return bundled.withConformance(new DeviceDeclaration.Conformance(
                            udp.profiles(), optional, udp.limits(), udp.reorderTolerance()))
                    .withLink(DeviceDeclaration.Link.embedded())
                    .withControl(Optional.empty())
                    .withParameters(bundled.parameters()
                            .withDut(new InetSocketAddress(dutAddress, WireConstants.DEFAULT_UDP_PORT))
                            .withTester(new InetSocketAddress(testerAddress, TESTER_PORT)));
        } catch (final DeclarationException e) {
            throw new IllegalStateException("the bundled reference profile is broken: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        control.close();
        link.close();
        dut.close();
    }
}

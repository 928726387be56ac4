package org.mrconf.devices;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.defect.Defects;
import org.mrconf.dut.ControlEndpoint;
import org.mrconf.dut.DeclarationException;
import org.mrconf.dut.DeclarationLoader;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.DutTarget;
import org.mrconf.dut.JsonLineControlClient;
import org.mrconf.dut.RawEthernetOptions;
import org.mrconf.dut.RawEthernetWireLink;
import org.mrconf.dut.UdpWireLink;
import org.mrconf.dut.WireLink;
import org.mrconf.embedded.EmbeddedReferenceDut;
import org.mrconf.embedded.ReferenceConfiguration;

/**
 * A device opened for a run from a {@code --dut} target: the embedded reference (the default), a
 * {@code udp://host:port} shortcut, or a declaration file. Closing it releases the link, the control channel
 * and, for the embedded reference, the device itself.
 */
public final class OpenDevice implements AutoCloseable {
    private final DeviceUnderTest device;
    private final List<AutoCloseable> resources;

    private final boolean declaredByHello;
    /** Starts another instance of the same embedded reference; null for a device outside this JVM. */
    private final Twin twin;

    /** How a second, identical instance of an embedded device is started. */
    @FunctionalInterface
    private interface Twin {
        OpenDevice start();
    }

    private OpenDevice(
            final DeviceUnderTest device,
            final List<AutoCloseable> resources,
            final boolean declaredByHello,
            final Twin twin) {
        this.device = device;
        this.resources = resources;
        this.declaredByHello = declaredByHello;
        this.twin = twin;
    }

    /**
     * A second, independent instance of this device in the same state (same defects, same declarations), for a run in
     * two lanes ({@link org.mrconf.runner.LanedRun}); empty for a device outside this JVM, which has one state only.
     */
    public Optional<OpenDevice> twin() {
        return twin == null ? Optional.empty() : Optional.of(twin.start());
    }

    /** Whether the device is judged by what its {@code hello} declares, no declaration file having been given. */
    public boolean declaredByHello() {
        return declaredByHello;
    }

    /** The device, carrying the profile it was opened with (the cases judge by it). */
    public DeviceUnderTest device() {
        return device;
    }

    /** Where its control agent listens; empty for the embedded reference. */
    public Optional<ControlEndpoint> controlEndpoint() {
        return device.profile().link().kind() == DeviceDeclaration.LinkKind.EMBEDDED
                ? Optional.empty()
                : device.profile().control();
    }

    /**
     * Opens the target.
     *
     * @throws DeclarationException  when the target or its profile is unusable (exit code 2)
     * @throws DutControlException  when the device's control agent cannot be reached
     */
    public static OpenDevice open(final String target) throws DeclarationException, DutControlException, IOException {
        final DutTarget parsed = DutTarget.parse(target);
        if (parsed instanceof DutTarget.Embedded reference) {
            if (reference.variant().isPresent()) {
                return embeddedVariant(reference.variant().get());
            }
            return embedded(defects(reference), configuration(reference));
        }
        if (parsed instanceof DutTarget.RawInterface raw && !raw.hasAddresses()) {
            throw new DeclarationException(
                    "--dut",
                    "iface:" + raw.name(),
                    "a raw Ethernet run needs the DUT's and the "
                            + "tester's addresses: add ?dut=IP&tester=IP, or give a declaration file whose link.kind is raw");
        }
        // Clause 12.1.5: without a declaration file, what applies is decided from hello, not from the reference's
        // claims.
        return openProfile(profileOf(parsed), target, !(parsed instanceof DutTarget.ProfileFile));
    }

    private static OpenDevice embedded(final Defects defects, final ReferenceConfiguration configuration) {
        final EmbeddedReferenceDut embedded = EmbeddedReferenceDut.start(defects, configuration);
        return new OpenDevice(embedded.device(), List.of(embedded), false, () -> embedded(defects, configuration));
    }

    /** The embedded reference taking the legal variant the {@code reference?variant=} target names. */
    private static OpenDevice embeddedVariant(final String name) throws DeclarationException {
        try {
            EmbeddedReferenceDut.checkVariant(name);
        } catch (final IllegalArgumentException e) {
            throw new DeclarationException(DutTarget.SOURCE, "variant", e.getMessage(), e);
        }
        return startVariant(name);
    }

    private static OpenDevice startVariant(final String name) {
        final EmbeddedReferenceDut embedded = EmbeddedReferenceDut.startVariant(name);
        return new OpenDevice(embedded.device(), List.of(embedded), false, () -> startVariant(name));
    }

    /** The configuration the {@code reference?config=} target names. */
    static ReferenceConfiguration configuration(final DutTarget.Embedded reference) throws DeclarationException {
        try {
            return ReferenceConfiguration.fromTargetName(reference.configuration());
        } catch (final IllegalArgumentException e) {
            throw new DeclarationException(DutTarget.SOURCE, "config", e.getMessage(), e);
        }
    }

    /** The embedded reference judged by a declaration file's declarations (e.g. a core-only profile). */
    private static OpenDevice embedded(final DeviceDeclaration declared) {
        final EmbeddedReferenceDut embedded = EmbeddedReferenceDut.start();
        return new OpenDevice(embedded.device(declared), List.of(embedded), false, () -> embedded(declared));
    }

    /** The defects the {@code reference?defect=} target names, checked against the reference's catalogue. */
    static Defects defects(final DutTarget.Embedded reference) throws DeclarationException {
        try {
            return Defects.parse(String.join(",", reference.defects()));
        } catch (final IllegalArgumentException e) {
            throw new DeclarationException(DutTarget.SOURCE, "defect", e.getMessage(), e);
        }
    }

    /** The declarations a parsed target stands for: its declaration file, or the reference's with the shortcut applied. */
    public static DeviceDeclaration profileOf(final DutTarget parsed) throws DeclarationException {
        return parsed instanceof DutTarget.ProfileFile file
                ? new DeclarationLoader().load(file.path())
                : parsed.applyTo(new DeclarationLoader().loadBundled("reference-udp"));
    }

    /** Opens the device a profile describes (a declaration file's or a shortcut's); {@code name} names it in errors. */
    public static OpenDevice open(final DeviceDeclaration profile, final String name)
            throws DeclarationException, DutControlException, IOException {
        return openProfile(profile, name, false);
    }

    private static OpenDevice openProfile(
            final DeviceDeclaration given, final String name, final boolean declaredByHello)
            throws DeclarationException, DutControlException, IOException {
        DeviceDeclaration profile = given;
        if (profile.link().kind() == DeviceDeclaration.LinkKind.EMBEDDED) {
            // The embedded reference judged by the file's declarations (e.g. a core-only profile).
            return embedded(profile);
        }
        final InetSocketAddress dut = profile.parameters().dut();
        final InetSocketAddress tester = testerAddress(profile);
        final List<AutoCloseable> resources = new ArrayList<>();
        try {
            final WireLink link = profile.link().kind() == DeviceDeclaration.LinkKind.RAW
                    ? RawEthernetWireLink.open(
                            RawEthernetOptions.of(profile.link().interfaceName().orElseThrow(), tester, dut))
                    : UdpWireLink.open(dut, tester, System::nanoTime);
            resources.add(link);
            final DutControl control = JsonLineControlClient.connect(profile.control()
                    .orElseThrow(() -> new DeclarationException(
                            name, "control", "a device other than the embedded reference needs a control endpoint")));
            resources.add(0, control);
            if (declaredByHello) {
                profile = profile.declaredBy(control.hello());
            }
            return new OpenDevice(
                    new DeviceUnderTest(profile.identity().model() + " at " + dut, control, link, profile),
                    resources,
                    declaredByHello,
                    null); // one device, one state: no twin
        } catch (final DeclarationException | DutControlException | IOException | RuntimeException e) {
            closeAll(resources);
            throw e;
        }
    }

    /** The profile's tester address, or, when it leaves the address open, the local one that routes to the DUT. */
    public static InetSocketAddress testerAddress(final DeviceDeclaration profile) throws IOException {
        final InetSocketAddress declared = profile.parameters().tester();
        if (!declared.getAddress().isAnyLocalAddress()) {
            return declared;
        }
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(profile.parameters().dut());
            final InetAddress local = probe.getLocalAddress();
            return new InetSocketAddress(local, declared.getPort());
        }
    }

    @Override
    public void close() {
        closeAll(resources);
    }

    private static void closeAll(final List<AutoCloseable> resources) {
        for (final AutoCloseable resource : resources) {
            try {
                resource.close();
            } catch (final Exception ignored) {
                // closing is best effort; the run's verdicts are already recorded
            }
        }
    }
}

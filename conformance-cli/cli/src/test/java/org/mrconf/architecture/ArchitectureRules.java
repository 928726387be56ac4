package org.mrconf.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleName;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameEndingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;
import java.net.DatagramSocket;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;

/**
 * The project's layout as ArchUnit rules, one per line of the layout, each with its reason. The rules take the root
 * package as a parameter so that {@link ArchitectureTest} can run them on the real tree ({@code org.mrconf}) and show,
 * on a small tree of deliberate violations ({@code org.mrconf.architecture.fixture}), that each of them can fail.
 */
final class ArchitectureRules {
    /** The packages of the reference implementation (module reference-impl). */
    static final List<String> REFERENCE =
            List.of("agent", "baseline", "defect", "fabric", "net", "sim", "softdut", "transport", "variant");

    /** The packages of the suite (modules spec-cases, conformance-cli/* and benchmarks/scenarios). */
    static final List<String> SUITE = List.of(
            "analyze",
            "annex",
            "authoring",
            "bench",
            "bundle",
            "cases",
            "catalogue",
            "cli",
            "devices",
            "dut",
            "embedded",
            "explore",
            "peer",
            "report",
            "runner",
            "selftest",
            "vectors",
            "verdict");

    /**
     * The packages that may be used with no reference inside: the runner library (run, verdicts, reports, bundles),
     * analyze, vector authoring and everything of spec-cases. A vendor takes these without the reference.
     */
    static final List<String> WITHOUT_THE_REFERENCE = List.of(
            "analyze",
            "annex",
            "authoring",
            "bundle",
            "cases",
            "catalogue",
            "dut",
            "explore",
            "peer",
            "report",
            "runner",
            "vectors",
            "verdict");

    /** The runner library (module conformance-cli/runner). */
    static final List<String> RUNNER_LIBRARY = List.of("runner", "verdict", "report", "bundle");

    /** What uses the runner library: nothing of it may be used by the library in turn. */
    static final List<String> ABOVE_THE_RUNNER =
            List.of("analyze", "authoring", "bench", "cli", "devices", "embedded", "explore", "selftest");

    /** The suite's own implementations of the DUT interfaces: the runner picks one; a case never names it. */
    private static final DescribedPredicate<JavaClass> CONCRETE_DEVICE_ACCESS = simpleNameEndingWith("WireLink")
            .and(not(simpleName("WireLink")))
            .or(simpleName("JsonLineControlClient"))
            .as("a concrete wire link or control client");

    private ArchitectureRules() {}

    /** wire depends on the JDK only. */
    static ArchRule codecDependsOnTheJdkOnly(final String root) {
        return noClasses()
                .that()
                .resideInAPackage(root + ".wire..")
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages(root + ".wire..", "java..")
                .because("both ends of the protocol share the codec, so it may carry nothing of either end");
    }

    /** The reference never depends on the suite. */
    static ArchRule referenceNeverDependsOnTheSuite(final String root) {
        return noClasses()
                .that()
                .resideInAnyPackage(packages(root, REFERENCE))
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(packages(root, SUITE))
                .because(
                        "the reference is one device under test among others: it must conform without the suite's help");
    }

    /** Cases reach a device only through the DUT interfaces. */
    static ArchRule casesReachTheDeviceOnlyThroughTheDutInterfaces(final String root) {
        return noClasses()
                .that()
                .resideInAPackage(root + ".cases..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(packages(root, REFERENCE))
                .orShould()
                .dependOnClassesThat(CONCRETE_DEVICE_ACCESS)
                .orShould()
                .dependOnClassesThat()
                .belongToAnyOf(DatagramSocket.class, Socket.class, ServerSocket.class, SocketChannel.class)
                .orShould()
                .dependOnClassesThat()
                .belongToAnyOf(DatagramChannel.class, ServerSocketChannel.class)
                .because("a case must run unchanged against any device: it sees DutControl, WireLink and the tester"
                        + " peer, never an engine, a concrete link or a socket");
    }

    /** Report writers depend on verdicts, not on cases. */
    static ArchRule reportWritersDependOnVerdictsNotOnCases(final String root) {
        return noClasses()
                .that()
                .resideInAPackage(root + ".report..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(root + ".cases..", root + ".runner..", root + ".peer..")
                .because("writers print the verdict records as they are and never re-derive a verdict");
    }

    /** Only the CLI parses options: the libraries are used without Picocli. */
    static ArchRule librariesNeverImportPicocli(final String root) {
        return noClasses()
                .that()
                .resideInAPackage(root + "..")
                .and()
                .resideOutsideOfPackage(root + ".cli..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("picocli..")
                .because("a library module is used by tests, benchmarks and other programs, which bring no CLI");
    }

    /**
     * The reference is reached through its adapter (modules conformance-cli/devices and the CLI); the runner
     * library, analyze, vector authoring and spec-cases never import it. Self-validation reads only the defect
     * catalogue, and the benchmarks measure the reference itself.
     */
    static ArchRule onlyTheAdapterImportsTheReference(final String root) {
        return noClasses()
                .that()
                .resideInAnyPackage(packages(root, WITHOUT_THE_REFERENCE))
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(packages(root, REFERENCE))
                .because("a vendor runs the suite against their device without the reference inside; the reference is"
                        + " one device, reached through its adapter");
    }

    /**
     * Self-validation reads the reference's defect and variant catalogues, and reaches its engine through the adapter.
     */
    static ArchRule selfValidationReadsOnlyTheDefectCatalogue(final String root) {
        return noClasses()
                .that()
                .resideInAPackage(root + ".selftest..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(packages(
                        root,
                        REFERENCE.stream()
                                .filter(name -> !name.equals("defect") && !name.equals("variant"))
                                .toList()))
                .because("which defects exist is the reference's to say; how to run it is the adapter's");
    }

    /** The runner library stands below its users: it never reaches up into the CLI, devices or benchmarks. */
    static ArchRule theRunnerLibraryStandsBelowItsUsers(final String root) {
        return noClasses()
                .that()
                .resideInAnyPackage(packages(root, RUNNER_LIBRARY))
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(packages(root, ABOVE_THE_RUNNER))
                .because("the library is what every command, benchmark and program builds on (docs/architecture.md)");
    }

    /** The packages of the commands and the libraries they call to read what a user names. */
    static final List<String> FILE_READERS = List.of(
            "analyze",
            "authoring",
            "bundle",
            "catalogue",
            "cli",
            "devices",
            "dut",
            "embedded",
            "explore",
            "pcap",
            "report",
            "runner",
            "selftest",
            "vectors",
            "verdict");

    /**
     * Classes that read a file no user names, each for its reason: {@code /proc/cpuinfo} for the stability report's
     * machine line, {@code /sys/class/net/IFACE/address} for a raw link's MAC address, and the suite's own copies of
     * the OCPTV and JUnit schemas (the tests' reference).
     */
    static final List<String> READ_NO_USER_FILE = List.of("StabilityCommand", "RawEthernetWireLink", "ReportSchemas");

    private static final java.util.Set<String> FILES_READS = java.util.Set.of(
            "readAllBytes",
            "readString",
            "readAllLines",
            "lines",
            "newInputStream",
            "newBufferedReader",
            "newByteChannel");

    /** A call that opens a file for reading without {@code UserFiles}. */
    private static final DescribedPredicate<JavaCall<?>> READS_A_FILE_DIRECTLY =
            new DescribedPredicate<>("read a file without UserFiles (Files.readAllBytes, readString, newInputStream,"
                    + " new FileInputStream, FileChannel.open, ObjectMapper.readTree(File), ...)") {
                @Override
                public boolean test(final JavaCall<?> call) {
                    final String owner = call.getTargetOwner().getName();
                    final String name = call.getName();
                    switch (owner) {
                        case "java.nio.file.Files":
                            return FILES_READS.contains(name);
                        case "java.io.FileInputStream", "java.io.FileReader", "java.io.RandomAccessFile":
                            return name.equals("<init>");
                        case "java.nio.channels.FileChannel":
                            return name.equals("open");
                        default:
                            return owner.startsWith("com.fasterxml.jackson.databind.")
                                    && (name.startsWith("read") || name.startsWith("readValue"))
                                    && call.getTarget().getRawParameterTypes().stream()
                                            .anyMatch(type -> type.getName().equals("java.io.File"));
                    }
                }
            };

    /**
     * Every command opens a file a user names through {@code org.mrconf.files.UserFiles} (issue 36): regular files
     * only, checked before opening, a size limit per kind of file, links only within their folder.
     */
    static ArchRule commandsOpenUserFilesThroughUserFiles(final String root) {
        return noClasses()
                .that()
                .resideInAnyPackage(packages(root, FILE_READERS))
                .and(not(new DescribedPredicate<JavaClass>("one of " + READ_NO_USER_FILE) {
                    @Override
                    public boolean test(final JavaClass type) {
                        final String top = type.getName().replaceAll("\\$.*", "");
                        return READ_NO_USER_FILE.contains(top.substring(top.lastIndexOf('.') + 1));
                    }
                }))
                .should()
                .callCodeUnitWhere(READS_A_FILE_DIRECTLY)
                .because("a FIFO blocks the command, /dev/zero never ends and a link leads out of its folder:"
                        + " org.mrconf.files.UserFiles checks each before a byte is read");
    }

    /** The classes that may use Pcap4J: the live raw-Ethernet link and the check it makes for libpcap. */
    static final List<String> LIVE_CAPTURE = List.of("RawEthernetWireLink", "Libpcap");

    /**
     * Only live capture uses Pcap4J (and so libpcap): capture files are read and written by the pure-Java
     * {@code org.mrconf.pcap.PcapReader} and {@code PcapWriter}, so vectors, evidence, bundles and analyze run on a
     * machine without libpcap (issue 35).
     */
    static ArchRule onlyLiveCaptureUsesPcap4j(final String root) {
        return noClasses()
                .that()
                .resideInAPackage(root + "..")
                .and(not(new DescribedPredicate<JavaClass>("one of " + LIVE_CAPTURE) {
                    @Override
                    public boolean test(final JavaClass type) {
                        final String top = type.getName().replaceAll("\\$.*", "");
                        return LIVE_CAPTURE.contains(top.substring(top.lastIndexOf('.') + 1));
                    }
                }))
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.pcap4j..")
                .because("libpcap is needed only for live raw-Ethernet capture; a capture file never needs it");
    }

    /** No package cycles. */
    static ArchRule noPackageCycles(final String root) {
        return slices().matching(root + ".(*)..")
                .should()
                .beFreeOfCycles()
                .because("a cycle makes two packages one concept under two names");
    }

    private static String[] packages(final String root, final List<String> names) {
        return names.stream().map(name -> root + "." + name + "..").toArray(String[]::new);
    }
}

package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.mrconf.dut.DeviceDeclaration.Link;
import org.mrconf.wire.WireConstants;

/**
 * What the user named as the device under test on the command line ({@code --dut}), before any profile is read:
 *
 * <ul>
 *   <li>absent or {@code reference}: the {@link Embedded} reference in the suite's own process (blank is an error);
 *       {@code reference?defect=NAME[,NAME]} runs it with deliberate non-conformances from the reference's defect
 *       catalogue (for self-validation; the names are checked where the reference is started), and
 *       {@code reference?config=long-haul}, {@code config=ipv6}, {@code config=frames}, {@code config=core}, {@code config=reorder} or {@code config=capped-window} runs it in another configuration;
 *       {@code reference?variant=NAME} runs it taking a legal variant, a choice the draft leaves open
 *       (its declarations follow);</li>
 *   <li>{@code udp://host:port}: a DUT reached over {@link Udp}, its control agent on {@code port + 1} unless
 *       given as {@code udp://host:port?control=P&token=T} (the port defaults to 4796);</li>
 *   <li>{@code iface:NAME}: a DUT on the Ethernet interface NAME, through {@link RawInterface}; for a quick run
 *       without a profile, {@code iface:NAME?dut=IP&tester=IP[&control=P&token=T]} gives the DUT's address, the
 *       tester's MetaRoCE address on that segment (the link answers ARP for it) and the agent's port;</li>
 *   <li>any other {@code scheme://}: an error;</li>
 *   <li>anything else: the path of a {@link ProfileFile}.</li>
 * </ul>
 *
 * The shortcuts carry no declarations: {@link #applyTo(DeviceDeclaration)} puts their addresses into a base profile,
 * e.g. the bundled {@value DeclarationLoader#REFERENCE_UDP}.
 */
@API(status = MAINTAINED, since = "0.1")
public sealed interface DutTarget {
    /** Names the command-line argument in errors. */
    String SOURCE = "--dut";

    /** A URL scheme followed by {@code //}: never a file name the user meant. */
    java.util.regex.Pattern URL_SCHEME = java.util.regex.Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*)://");

    /**
     * Parses a {@code --dut} value.
     *
     * @param text the argument, or {@code null} when it was not given
     * @throws DeclarationException naming the part of a shortcut that is wrong
     */
    static DutTarget parse(String text) throws DeclarationException {
        if (text == null) {
            return new Embedded();
        }
        if (text.isBlank()) {
            // Given but empty is a mistake (an unset shell variable), not a request for the embedded reference.
            throw new DeclarationException(
                    SOURCE,
                    "(target)",
                    "is blank; leave --dut out to test the embedded reference, or give udp://HOST:PORT, iface:NAME"
                            + " or a declaration file");
        }
        String trimmed = text.strip();
        if (trimmed.equals(Embedded.NAME) || trimmed.startsWith(Embedded.NAME + "?")) {
            return Embedded.parse(trimmed);
        }
        if (trimmed.startsWith("udp:")) {
            return Udp.parse(trimmed);
        }
        if (trimmed.startsWith("iface:")) {
            return RawInterface.parse(trimmed.substring("iface:".length()));
        }
        java.util.regex.Matcher scheme = URL_SCHEME.matcher(trimmed);
        if (scheme.lookingAt()) {
            throw new DeclarationException(
                    SOURCE,
                    "(target)",
                    "unknown scheme '" + scheme.group(1) + "' in \"" + trimmed
                            + "\": expected udp://HOST:PORT, iface:NAME or a declaration file");
        }
        try {
            return new ProfileFile(Path.of(trimmed));
        } catch (InvalidPathException e) {
            throw new DeclarationException(
                    SOURCE, "(file)", "not a profile path, udp://host:port or iface:NAME: \"" + trimmed + "\"", e);
        }
    }

    /**
     * The profile to test with: the shortcut's addresses and link put into {@code base}; a {@link ProfileFile} is
     * not applied (load it instead) and returns {@code base} unchanged.
     */
    DeviceDeclaration applyTo(DeviceDeclaration base);

    /**
     * The reference DUT in the suite's own process.
     *
     * @param defects       the names of the deliberate non-conformances it should commit, as given (none for the
     *     clean reference)
     * @param configuration the name of the configuration it runs in, as given ({@value #STANDARD} unless named)
     * @param variant       the legal variant it takes (a choice the draft leaves open), as given; empty for none
     */
    record Embedded(List<String> defects, String configuration, Optional<String> variant) implements DutTarget {
        /** How the embedded reference is named on the command line. */
        public static final String NAME = "reference";
        /** The configuration the reference runs in unless {@code config=} names another. */
        public static final String STANDARD = "standard";

        public Embedded {
            defects = List.copyOf(defects);
            Objects.requireNonNull(configuration, "configuration");
            Objects.requireNonNull(variant, "variant");
        }

        /** The reference committing {@code defects}, in the configuration named, taking no variant. */
        public Embedded(List<String> defects, String configuration) {
            this(defects, configuration, Optional.empty());
        }

        /** The clean reference in its standard configuration. */
        public Embedded() {
            this(List.of());
        }

        /** The reference committing {@code defects}, in its standard configuration. */
        public Embedded(List<String> defects) {
            this(defects, STANDARD);
        }

        static Embedded parse(String text) throws DeclarationException {
            int question = text.indexOf('?');
            Map<String, String> query = Udp.query(question < 0 ? null : text.substring(question + 1));
            String names = query.remove("defect");
            String configuration = query.remove("config");
            String variant = query.remove("variant");
            if (!query.isEmpty()) {
                throw new DeclarationException(
                        SOURCE,
                        query.keySet().iterator().next(),
                        "unknown parameter, expected defect, config or variant");
            }
            if (variant != null) {
                if (variant.isBlank()) {
                    throw new DeclarationException(
                            SOURCE, "variant", "name a legal variant (./metaroce selftest --list shows them)");
                }
                if (names != null || configuration != null) {
                    throw new DeclarationException(
                            SOURCE,
                            "variant",
                            "a variant runs the clean reference in its standard configuration: give it alone");
                }
                return new Embedded(List.of(), STANDARD, Optional.of(variant.strip()));
            }
            if (configuration != null && configuration.isBlank()) {
                throw new DeclarationException(
                        SOURCE,
                        "config",
                        "name a configuration: standard, long-haul, ipv6, frames, core, reorder or capped-window");
            }
            configuration = configuration == null ? STANDARD : configuration.strip();
            if (names == null) {
                return new Embedded(List.of(), configuration);
            }
            List<String> defects = Arrays.stream(names.split(","))
                    .map(String::strip)
                    .filter(name -> !name.isEmpty())
                    .toList();
            if (defects.isEmpty()) {
                throw new DeclarationException(SOURCE, "defect", "give one or more defect names, comma separated");
            }
            return new Embedded(defects, configuration);
        }

        @Override
        public DeviceDeclaration applyTo(DeviceDeclaration base) {
            return base.withControl(Optional.empty()).withLink(Link.embedded());
        }
    }

    /**
     * A DUT reached over UDP.
     *
     * @param address     the DUT's IP address (the shortcut takes literals and {@code localhost} only, so nothing
     *                    is looked up in DNS)
     * @param port        its MetaRoCE UDP port
     * @param controlPort its control agent's TCP port
     * @param token       the agent's token, if it wants one
     */
    record Udp(InetAddress address, int port, int controlPort, Optional<String> token) implements DutTarget {
        public Udp {
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(token, "token");
        }

        static Udp parse(String text) throws DeclarationException {
            URI uri;
            try {
                uri = new URI(text);
            } catch (URISyntaxException e) {
                throw new DeclarationException(SOURCE, "udp", "not udp://host:port: " + e.getMessage(), e);
            }
            if (!"udp".equals(uri.getScheme())
                    || uri.getHost() == null
                    || uri.getRawPath() != null && !uri.getRawPath().isEmpty()
                    || uri.getRawUserInfo() != null
                    || uri.getRawFragment() != null) {
                throw new DeclarationException(
                        SOURCE, "udp", "expected udp://host:port[?control=P&token=T], found \"" + text + "\"");
            }
            String host = uri.getHost();
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            InetAddress address =
                    "localhost".equals(host) ? InetAddress.getLoopbackAddress() : JsonFields.parseLiteral(host);
            if (address == null) {
                throw new DeclarationException(
                        SOURCE, "host", "must be an IP address literal or localhost, found \"" + host + "\"");
            }
            int port = uri.getPort() < 0 ? WireConstants.DEFAULT_UDP_PORT : uri.getPort();
            if (port < 1 || port > 0xFFFF) {
                throw new DeclarationException(SOURCE, "port", "must be 1 to 65535, found " + port);
            }
            Map<String, String> query = query(uri.getRawQuery());
            int controlPort = port + 1;
            if (query.containsKey("control")) {
                controlPort = portValue(query.remove("control"), "control");
            } else if (controlPort > 0xFFFF) {
                throw new DeclarationException(SOURCE, "control", "port + 1 is not a port; give ?control=P");
            }
            Optional<String> token = Optional.ofNullable(query.remove("token"));
            if (token.isPresent() && token.get().length() < ControlEndpoint.MIN_TOKEN_LENGTH) {
                throw new DeclarationException(
                        SOURCE,
                        "token",
                        "must be at least " + ControlEndpoint.MIN_TOKEN_LENGTH + " characters, found "
                                + token.get().length());
            }
            if (!query.isEmpty()) {
                throw new DeclarationException(
                        SOURCE, query.keySet().iterator().next(), "unknown parameter, expected control or token");
            }
            return new Udp(address, port, controlPort, token);
        }

        static Map<String, String> query(String raw) throws DeclarationException {
            Map<String, String> values = new LinkedHashMap<>();
            if (raw == null || raw.isEmpty()) {
                return values;
            }
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new DeclarationException(SOURCE, pair.isEmpty() ? "(query)" : pair, "expected name=value");
                }
                String name = URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                if (values.put(name, value) != null) {
                    throw new DeclarationException(SOURCE, name, "given twice");
                }
            }
            return values;
        }

        static int portValue(String text, String field) throws DeclarationException {
            try {
                int port = Integer.parseInt(text);
                if (port >= 1 && port <= 0xFFFF) {
                    return port;
                }
            } catch (NumberFormatException e) {
                // Reported below with the same words as an out-of-range number.
            }
            throw new DeclarationException(SOURCE, field, "must be a port 1 to 65535, found \"" + text + "\"");
        }

        /** The agent's endpoint. */
        public ControlEndpoint control() {
            return new ControlEndpoint(address.getHostAddress(), controlPort, token);
        }

        /** Sets the DUT's address and port, the control endpoint and a UDP link. */
        @Override
        public DeviceDeclaration applyTo(DeviceDeclaration base) {
            return base.withParameters(base.parameters().withDut(new InetSocketAddress(address, port)))
                    .withControl(Optional.of(control()))
                    .withLink(Link.udp());
        }
    }

    /**
     * A DUT on the Ethernet interface {@code name}; MACs are read from the interface or resolved with ARP.
     *
     * @param name        the interface
     * @param dut         the DUT's IP address, when the shortcut gives it
     * @param tester      the tester's MetaRoCE address on that segment, when the shortcut gives it
     * @param controlPort the agent's TCP port on the DUT's address
     * @param token       the agent's token, if it wants one
     */
    record RawInterface(
            String name,
            Optional<InetAddress> dut,
            Optional<InetAddress> tester,
            int controlPort,
            Optional<String> token)
            implements DutTarget {
        public RawInterface {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(dut, "dut");
            Objects.requireNonNull(tester, "tester");
            Objects.requireNonNull(token, "token");
        }

        /** Just the interface: the addresses come from a profile. */
        public RawInterface(String name) {
            this(name, Optional.empty(), Optional.empty(), WireConstants.DEFAULT_UDP_PORT + 1, Optional.empty());
        }

        static RawInterface parse(String text) throws DeclarationException {
            int question = text.indexOf('?');
            String name = question < 0 ? text : text.substring(0, question);
            if (name.isEmpty()
                    || name.length() > 15
                    || name.contains("/")
                    || name.chars().anyMatch(Character::isWhitespace)) {
                throw new DeclarationException(
                        SOURCE,
                        "iface",
                        "not a Linux interface name (1 to 15 characters, no " + "'/' or spaces): \"" + name + "\"");
            }
            Map<String, String> query = Udp.query(question < 0 ? null : text.substring(question + 1));
            Optional<InetAddress> dut = address(query.remove("dut"), "dut");
            Optional<InetAddress> tester = address(query.remove("tester"), "tester");
            int controlPort = query.containsKey("control")
                    ? Udp.portValue(query.remove("control"), "control")
                    : WireConstants.DEFAULT_UDP_PORT + 1;
            Optional<String> token = Optional.ofNullable(query.remove("token"));
            if (!query.isEmpty()) {
                throw new DeclarationException(
                        SOURCE,
                        query.keySet().iterator().next(),
                        "unknown parameter, expected dut, tester, control or token");
            }
            if (dut.isPresent() != tester.isPresent()) {
                throw new DeclarationException(
                        SOURCE,
                        dut.isPresent() ? "tester" : "dut",
                        "give both dut and tester addresses, or neither and a profile");
            }
            return new RawInterface(name, dut, tester, controlPort, token);
        }

        private static Optional<InetAddress> address(String text, String field) throws DeclarationException {
            if (text == null) {
                return Optional.empty();
            }
            InetAddress address = JsonFields.parseLiteral(text);
            if (address == null) {
                throw new DeclarationException(SOURCE, field, "must be an IP address literal, found \"" + text + "\"");
            }
            return Optional.of(address);
        }

        /** Whether the shortcut itself says where the DUT and the tester are. */
        public boolean hasAddresses() {
            return dut.isPresent();
        }

        @Override
        public DeviceDeclaration applyTo(DeviceDeclaration base) {
            DeviceDeclaration profile = base.withLink(Link.raw(name));
            if (dut.isPresent()) {
                int port = WireConstants.DEFAULT_UDP_PORT;
                profile = profile.withParameters(profile.parameters()
                                .withDut(new InetSocketAddress(dut.get(), port))
                                .withTester(new InetSocketAddress(tester.orElseThrow(), port)))
                        .withControl(Optional.of(new ControlEndpoint(dut.get().getHostAddress(), controlPort, token)));
            }
            return profile;
        }
    }

    /** A declaration file to load with {@link DeclarationLoader#load}. */
    record ProfileFile(Path path) implements DutTarget {
        public ProfileFile {
            Objects.requireNonNull(path, "path");
        }

        @Override
        public DeviceDeclaration applyTo(DeviceDeclaration base) {
            return base;
        }
    }
}

package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.mrconf.catalogue.Clause;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.catalogue.Level;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeviceDeclaration.Conformance;
import org.mrconf.dut.DeviceDeclaration.Link;
import org.mrconf.dut.DeviceDeclaration.LinkKind;
import org.mrconf.dut.DeviceDeclaration.Parameters;
import org.mrconf.dut.DeviceDeclaration.ReorderTolerance;
import org.mrconf.dut.DeviceDeclaration.Timers;
import org.mrconf.dut.JsonFields.FieldException;
import org.mrconf.pcap.MacAddress;

/**
 * Reads a {@link DeviceDeclaration} from JSON and checks every field: unknown and duplicate fields, types, ranges, closed
 * vocabularies (profiles, link kinds) and the relations between fields (paths within the declared limit, minimum
 * RTO at most the initial at most the maximum...). Any problem is one {@link DeclarationException} naming the file
 * and the JSON path. Given a {@link ClauseCatalogue} it also checks that each optional clause exists and is a
 * SHOULD or MAY clause. The bundled profiles live under {@value #BUNDLED_DIRECTORY} on the classpath.
 */
@API(status = MAINTAINED, since = "0.1")
public final class DeclarationLoader {
    /** Classpath folder of the bundled profiles. */
    public static final String BUNDLED_DIRECTORY = "/profiles/";
    /** The bundled profile of the reference soft DUT over loopback UDP. */
    public static final String REFERENCE_UDP = "reference-udp";
    /** Largest declaration file read (1 MiB): a profile is a few KB; anything bigger is a wrong file. */
    public static final long MAX_FILE_BYTES = 1 << 20;

    /** The field name of a comment, allowed in every object of a profile and ignored. */
    public static final String COMMENT_KEY = "//";

    /** Largest timer value accepted, in microseconds: one hour. */
    private static final long MAX_TIMER_US = 3_600_000_000L;

    private static final Pattern CLAUSE_ID = Pattern.compile("[1-9][0-9]*(\\.[1-9][0-9]*){2}");
    private static final Pattern MAC = Pattern.compile("[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}");

    private final ObjectMapper mapper = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    private final ClauseCatalogue catalogue;

    /** A loader that checks optional clause ids by their form only. */
    public DeclarationLoader() {
        this.catalogue = null;
    }

    /** A loader that checks optional clause ids against {@code catalogue}. */
    public DeclarationLoader(ClauseCatalogue catalogue) {
        this.catalogue = Objects.requireNonNull(catalogue, "catalogue");
    }

    /** Loads a declaration file: a regular file of at most {@link #MAX_FILE_BYTES} bytes of UTF-8 JSON. */
    public DeviceDeclaration load(Path file) throws DeclarationException {
        return parse(file.toString(), TextFiles.readUtf8(file, MAX_FILE_BYTES, "a profile"));
    }

    /** Loads a bundled profile by name, e.g. {@value #REFERENCE_UDP}. */
    public DeviceDeclaration loadBundled(String name) throws DeclarationException {
        String resource = BUNDLED_DIRECTORY + name + ".json";
        try (InputStream in = DeclarationLoader.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new DeclarationException("classpath:" + resource, "(file)", "not found in this build");
            }
            return parse("classpath:" + resource, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new DeclarationException("classpath:" + resource, "(file)", "cannot be read: " + e.getMessage(), e);
        }
    }

    /** Parses profile JSON; {@code source} names it in errors. */
    public DeviceDeclaration parse(String source, String json) throws DeclarationException {
        JsonNode tree;
        try {
            tree = mapper.readTree(json);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at != null ? " at line " + at.getLineNr() + ", column " + at.getColumnNr() : "";
            throw new DeclarationException(source, "(json)", "not valid JSON: " + e.getOriginalMessage() + where, e);
        }
        if (tree == null || tree.isMissingNode()) {
            throw new DeclarationException(source, "(file)", "is empty");
        }
        stripComments(tree);
        try {
            return read(JsonFields.asObject(tree, "(root)"));
        } catch (FieldException e) {
            throw new DeclarationException(source, e.field(), e.problem(), e);
        }
    }

    /**
     * JSON has no comments, so a profile may carry them as {@value #COMMENT_KEY} fields in any object (the template of
     * {@code metaroce declaration new} does); they are removed before the fields are checked.
     */
    private static void stripComments(JsonNode node) {
        if (node instanceof ObjectNode object) {
            object.remove(COMMENT_KEY);
            object.forEach(DeclarationLoader::stripComments);
        } else if (node != null && node.isArray()) {
            node.forEach(DeclarationLoader::stripComments);
        }
    }

    private DeviceDeclaration read(ObjectNode root) throws FieldException {
        JsonFields.onlyFields(
                root, "", Set.of("description", "identity", "conformance", "parameters", "control", "link"));
        if (JsonFields.has(root, "description")) {
            JsonFields.string(root, "", "description");
        }
        ObjectNode identityNode = JsonFields.object(root, "", "identity");
        JsonFields.onlyFields(identityNode, "identity", Set.of("vendor", "model", "firmware", "driver"));
        DutIdentity identity = new DutIdentity(
                JsonFields.nonEmptyString(identityNode, "identity", "vendor"),
                JsonFields.nonEmptyString(identityNode, "identity", "model"),
                JsonFields.nonEmptyString(identityNode, "identity", "firmware"),
                JsonFields.nonEmptyString(identityNode, "identity", "driver"));
        Conformance conformance = conformance(JsonFields.object(root, "", "conformance"));
        Parameters parameters = parameters(JsonFields.object(root, "", "parameters"), conformance.limits());
        Link link = link(JsonFields.object(root, "", "link"));
        Optional<ControlEndpoint> control = Optional.empty();
        if (JsonFields.has(root, "control")) {
            control = Optional.of(control(JsonFields.object(root, "", "control")));
        } else if (link.kind() != LinkKind.EMBEDDED) {
            throw new FieldException(
                    "control",
                    "missing: a " + link.kind().jsonName() + " link needs the DUT's " + "control agent endpoint");
        }
        return new DeviceDeclaration(identity, conformance, parameters, control, link);
    }

    private Conformance conformance(ObjectNode node) throws FieldException {
        String at = "conformance";
        JsonFields.onlyFields(node, at, Set.of("profiles", "optionalClauses", "limits", "reorderTolerance"));
        List<String> names = JsonFields.strings(node, at, "profiles");
        if (names.isEmpty()) {
            throw new FieldException(at + ".profiles", "must name at least one profile (every device claims core)");
        }
        Set<Profile> profiles = EnumSet.noneOf(Profile.class);
        for (int i = 0; i < names.size(); i++) {
            Profile profile;
            try {
                profile = Profile.fromSpecName(names.get(i));
            } catch (IllegalArgumentException e) {
                throw new FieldException(at + ".profiles[" + i + "]", e.getMessage());
            }
            if (!profiles.add(profile)) {
                throw new FieldException(at + ".profiles[" + i + "]", "duplicate profile '" + profile + "'");
            }
        }
        List<String> clauses =
                JsonFields.has(node, "optionalClauses") ? JsonFields.strings(node, at, "optionalClauses") : List.of();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < clauses.size(); i++) {
            checkOptionalClause(clauses.get(i), at + ".optionalClauses[" + i + "]", seen);
        }
        ObjectNode limitsNode = JsonFields.object(node, at, "limits");
        String lat = at + ".limits";
        JsonFields.onlyFields(
                limitsNode, lat, Set.of("maxPaths", "maxStreams", "maxMessageLength", "maxOutstandingMessages", "mtu"));
        DutLimits limits = new DutLimits(
                (int) JsonFields.integer(limitsNode, lat, "maxPaths", 1, 256),
                (int) JsonFields.integer(limitsNode, lat, "maxStreams", 1, 65_536),
                JsonFields.integer(limitsNode, lat, "maxMessageLength", 1, 0xFFFF_FFFFL),
                (int) JsonFields.integer(limitsNode, lat, "maxOutstandingMessages", 1, Integer.MAX_VALUE),
                (int) JsonFields.integer(limitsNode, lat, "mtu", 576, 65_535));
        ReorderTolerance tolerance = ReorderTolerance.NONE;
        if (JsonFields.has(node, "reorderTolerance")) {
            ObjectNode t = JsonFields.object(node, at, "reorderTolerance");
            String tat = at + ".reorderTolerance";
            JsonFields.onlyFields(t, tat, Set.of("packets", "timeUs"));
            tolerance = new ReorderTolerance(
                    (int) JsonFields.integer(t, tat, "packets", 0, 3), micros(t, tat, "timeUs", 0));
        }
        return new Conformance(profiles, clauses, limits, tolerance);
    }

    private void checkOptionalClause(String id, String at, Set<String> seen) throws FieldException {
        if (!CLAUSE_ID.matcher(id).matches()) {
            throw new FieldException(at, "not a clause id like 6.4.3: \"" + id + "\"");
        }
        if (!seen.add(id)) {
            throw new FieldException(at, "duplicate clause " + id);
        }
        if (catalogue != null) {
            Clause clause = catalogue
                    .find(id)
                    .orElseThrow(() -> new FieldException(
                            at, "clause " + id + " is not in the catalogue of spec " + catalogue.specVersion()));
            if (clause.level() == Level.MUST) {
                throw new FieldException(
                        at,
                        "clause " + id + " is a MUST clause; list only the SHOULD and MAY "
                                + "clauses implemented (clause 12.1.2)");
            }
        }
    }

    private Parameters parameters(ObjectNode node, DutLimits limits) throws FieldException {
        String at = "parameters";
        JsonFields.onlyFields(
                node,
                at,
                Set.of("dut", "tester", "mtu", "paths", "initialSendPsn", "initialReceivePsn", "timers", "congestion"));
        InetSocketAddress dut = endpoint(JsonFields.object(node, at, "dut"), at + ".dut", 1);
        InetSocketAddress tester = endpoint(JsonFields.object(node, at, "tester"), at + ".tester", 0);
        if (dut.getAddress().getClass() != tester.getAddress().getClass()) {
            throw new FieldException(at + ".tester.address", "must be the same IP family as parameters.dut.address");
        }
        int mtu = (int) JsonFields.integer(node, at, "mtu", 576, 65_535);
        if (mtu > limits.mtu()) {
            throw new FieldException(
                    at + ".mtu", "must not exceed conformance.limits.mtu (" + limits.mtu() + "), found " + mtu);
        }
        int paths = (int) JsonFields.integer(node, at, "paths", 1, 256);
        if (paths > limits.maxPaths()) {
            throw new FieldException(
                    at + ".paths",
                    "must not exceed conformance.limits.maxPaths (" + limits.maxPaths() + "), found " + paths);
        }
        long sendPsn = JsonFields.has(node, "initialSendPsn")
                ? JsonFields.integer(node, at, "initialSendPsn", 0, 0xFFFF_FFFFL)
                : 0;
        long receivePsn = JsonFields.has(node, "initialReceivePsn")
                ? JsonFields.integer(node, at, "initialReceivePsn", 0, 0xFFFF_FFFFL)
                : 0;
        Timers timers = timers(JsonFields.object(node, at, "timers"));
        DeviceDeclaration.Congestion congestion = DeviceDeclaration.Congestion.DEFAULTS;
        if (JsonFields.has(node, "congestion")) {
            congestion = congestion(JsonFields.object(node, at, "congestion"), at + ".congestion");
        }
        return new Parameters(dut, tester, mtu, paths, sendPsn, receivePsn, timers, congestion);
    }

    /**
     * Spec clause 12.1.6. Every field is optional here and defaults to {@link DeviceDeclaration.Congestion#DEFAULTS}
     * (no first windows): the declarations case, not the loader, reports what a device claiming congestion left out.
     */
    private static DeviceDeclaration.Congestion congestion(ObjectNode node, String at) throws FieldException {
        JsonFields.onlyFields(node, at, DeviceDeclaration.Congestion.ALLOWED_FIELDS);
        DeviceDeclaration.Congestion defaults = DeviceDeclaration.Congestion.DEFAULTS;
        double decreaseFactor = JsonFields.has(node, "decreaseFactor")
                ? JsonFields.number(node, at, "decreaseFactor", 0.01, 0.99)
                : defaults.decreaseFactor();
        long linkRateMbps = JsonFields.has(node, "linkRateMbps")
                ? JsonFields.integer(node, at, "linkRateMbps", 1, 100_000_000)
                : defaults.linkRateMbps();
        double targetUtilization = JsonFields.has(node, "targetUtilization")
                ? JsonFields.number(node, at, "targetUtilization", 0.01, 1.0)
                : defaults.targetUtilization();
        Duration hintInterval = JsonFields.has(node, "hintIntervalUs")
                ? Duration.ofNanos(1000 * JsonFields.integer(node, at, "hintIntervalUs", 1, 10_000_000))
                : defaults.hintInterval();
        int pathWindow = JsonFields.has(node, "initialPathWindow")
                ? (int) JsonFields.integer(node, at, "initialPathWindow", 1, 256)
                : 0;
        int connectionWindow = JsonFields.has(node, "initialConnectionWindow")
                ? (int) JsonFields.integer(node, at, "initialConnectionWindow", 1, Integer.MAX_VALUE)
                : 0;
        // Optional (Table 12-2): absent, the hint interval (clause 8.2.4).
        Duration activeWindow = JsonFields.has(node, "activeWindowUs")
                ? Duration.ofNanos(1000 * JsonFields.integer(node, at, "activeWindowUs", 1, 10_000_000))
                : hintInterval;
        if (activeWindow.compareTo(hintInterval) < 0) {
            throw new FieldException(
                    at + ".activeWindowUs", "must be at least the hint interval (clause 8.2.4): " + activeWindow);
        }
        // Optional (clause 10.1.2, Table 12-2): absent, no maximum; present, at least the first connection window.
        int maxConnectionWindow = JsonFields.has(node, "maxConnectionWindow")
                ? (int) JsonFields.integer(node, at, "maxConnectionWindow", 1, Integer.MAX_VALUE)
                : 0;
        if (maxConnectionWindow > 0 && maxConnectionWindow < connectionWindow) {
            throw new FieldException(
                    at + ".maxConnectionWindow",
                    "must be at least initialConnectionWindow (" + connectionWindow + ", clause 10.1.2): "
                            + maxConnectionWindow);
        }
        Set<String> undeclared = new java.util.TreeSet<>(DeviceDeclaration.Congestion.FIELDS);
        node.fieldNames().forEachRemaining(undeclared::remove);
        return new DeviceDeclaration.Congestion(
                decreaseFactor,
                linkRateMbps,
                targetUtilization,
                hintInterval,
                pathWindow,
                connectionWindow,
                undeclared,
                activeWindow,
                maxConnectionWindow);
    }

    private static InetSocketAddress endpoint(ObjectNode node, String at, int minPort) throws FieldException {
        JsonFields.onlyFields(node, at, Set.of("address", "udpPort"));
        InetAddress address = JsonFields.asAddress(JsonFields.required(node, at, "address"), at + ".address");
        int port = (int) JsonFields.integer(node, at, "udpPort", minPort, 0xFFFF);
        return new InetSocketAddress(address, port);
    }

    private static Timers timers(ObjectNode node) throws FieldException {
        String at = "parameters.timers";
        JsonFields.onlyFields(
                node,
                at,
                Set.of(
                        "minRtoUs",
                        "initialRtoUs",
                        "maxRtoUs",
                        "ackDelayUs",
                        "ackCoalescing",
                        "unhealthyThreshold",
                        "connectionTimeoutUs",
                        "toleranceUs",
                        "receiverNotReadyRetryUs"));
        Duration minRto = micros(node, at, "minRtoUs", 1);
        Duration initialRto = micros(node, at, "initialRtoUs", 1);
        Duration maxRto = micros(node, at, "maxRtoUs", 1);
        if (maxRto.compareTo(minRto) < 0) {
            throw new FieldException(
                    at + ".maxRtoUs",
                    "must be at least minRtoUs (" + minRto.toNanos() / 1000 + "), found " + maxRto.toNanos() / 1000);
        }
        if (initialRto.compareTo(minRto) < 0 || initialRto.compareTo(maxRto) > 0) {
            throw new FieldException(
                    at + ".initialRtoUs",
                    "must lie between minRtoUs and maxRtoUs ("
                            + minRto.toNanos() / 1000 + " to " + maxRto.toNanos() / 1000 + "), found "
                            + initialRto.toNanos() / 1000);
        }
        return new Timers(
                minRto,
                initialRto,
                maxRto,
                micros(node, at, "ackDelayUs", 0),
                (int) JsonFields.integer(node, at, "ackCoalescing", 1, 256),
                (int) JsonFields.integer(node, at, "unhealthyThreshold", 1, 1000),
                micros(node, at, "connectionTimeoutUs", 1),
                micros(node, at, "toleranceUs", 0),
                JsonFields.has(node, "receiverNotReadyRetryUs")
                        ? Optional.of(micros(node, at, "receiverNotReadyRetryUs", 1))
                        : Optional.empty());
    }

    private static Duration micros(ObjectNode node, String at, String name, long min) throws FieldException {
        return Duration.ofNanos(JsonFields.integer(node, at, name, min, MAX_TIMER_US) * 1000);
    }

    private static ControlEndpoint control(ObjectNode node) throws FieldException {
        String at = "control";
        JsonFields.onlyFields(node, at, Set.of("host", "port", "token"));
        String host = JsonFields.nonEmptyString(node, at, "host");
        int port = (int) JsonFields.integer(node, at, "port", 1, 0xFFFF);
        Optional<String> token = Optional.empty();
        if (JsonFields.has(node, "token")) {
            String value = JsonFields.string(node, at, "token");
            if (value.length() < ControlEndpoint.MIN_TOKEN_LENGTH) {
                throw new FieldException(
                        at + ".token",
                        "must be at least " + ControlEndpoint.MIN_TOKEN_LENGTH
                                + " characters (control protocol section 3), found " + value.length());
            }
            token = Optional.of(value);
        }
        return new ControlEndpoint(host, port, token);
    }

    private static Link link(ObjectNode node) throws FieldException {
        String at = "link";
        JsonFields.onlyFields(node, at, Set.of("kind", "interface", "testerMac", "dutMac"));
        String kindName = JsonFields.string(node, at, "kind");
        LinkKind kind = null;
        List<String> allowed = new ArrayList<>();
        for (LinkKind k : LinkKind.values()) {
            allowed.add(k.jsonName());
            if (k.jsonName().equals(kindName)) {
                kind = k;
            }
        }
        if (kind == null) {
            throw new FieldException(
                    at + ".kind",
                    "unknown link kind '" + kindName + "', expected one of " + String.join(", ", allowed));
        }
        if (kind != LinkKind.RAW) {
            for (String rawOnly : List.of("interface", "testerMac", "dutMac")) {
                if (node.has(rawOnly)) {
                    throw new FieldException(
                            at + "." + rawOnly, "only a raw link has it, this link is " + kind.jsonName());
                }
            }
            return kind == LinkKind.UDP ? Link.udp() : Link.embedded();
        }
        String name = JsonFields.nonEmptyString(node, at, "interface");
        if (name.length() > 15 || name.contains("/") || name.chars().anyMatch(Character::isWhitespace)) {
            throw new FieldException(
                    at + ".interface",
                    "not a Linux interface name (at most 15 characters, no '/' " + "or spaces): \"" + name + "\"");
        }
        return new Link(kind, Optional.of(name), mac(node, at, "testerMac"), mac(node, at, "dutMac"));
    }

    private static Optional<MacAddress> mac(ObjectNode node, String at, String name) throws FieldException {
        if (!JsonFields.has(node, name)) {
            return Optional.empty();
        }
        String text = JsonFields.string(node, at, name);
        if (!MAC.matcher(text).matches()) {
            throw new FieldException(
                    at + "." + name, "must be a MAC address like 02:00:00:00:00:01, found \"" + text + "\"");
        }
        MacAddress mac = MacAddress.parse(text);
        if (mac.isMulticast()) {
            throw new FieldException(at + "." + name, "must be a unicast MAC address, found " + text);
        }
        return Optional.of(mac);
    }
}

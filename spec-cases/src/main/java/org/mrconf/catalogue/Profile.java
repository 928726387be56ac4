package org.mrconf.catalogue;

import static org.apiguardian.api.API.Status.MAINTAINED;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import org.apiguardian.api.API;

/**
 * The features a device may claim (spec Table 12-1). A closed list: the catalogue, the spec and DUT
 * profiles may name no other.
 */
@API(status = MAINTAINED, since = "0.1")
public enum Profile {
    CORE("core"),
    IPV6("ipv6"),
    MULTIPATH("multipath"),
    STREAMS("streams"),
    READ("read"),
    IMMEDIATE("immediate"),
    CONGESTION("congestion"),
    LONG_HAUL("long-haul");

    private final String specName;

    Profile(final String specName) {
        this.specName = specName;
    }

    /** The name the spec and the JSON files use, e.g. {@code long-haul}. */
    @JsonValue
    public String specName() {
        return specName;
    }

    /**
     * Looks a profile up by its spec name.
     *
     * @throws IllegalArgumentException naming the unknown value and the allowed ones
     */
    @JsonCreator
    public static Profile fromSpecName(final String name) {
        for (final Profile profile : values()) {
            if (profile.specName.equals(name)) {
                return profile;
            }
        }
        throw new IllegalArgumentException("unknown profile '" + name + "', expected one of " + allSpecNames());
    }

    /** All spec names, comma separated, for error messages and help text. */
    public static String allSpecNames() {
        final StringBuilder names = new StringBuilder();
        for (final Profile profile : values()) {
            if (names.length() > 0) {
                names.append(", ");
            }
            names.append(profile.specName);
        }
        return names.toString();
    }

    @Override
    public String toString() {
        return specName;
    }
}

package org.mrconf.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.apiguardian.api.API;

/**
 * The suite's version and the git commit it was built from, read from {@value #RESOURCE}, which Maven fills in at
 * build time. Either is {@code "unknown"} when the build could not tell (no git checkout, a build outside Maven).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record BuildInfo(String version, String commit) {
    static final String RESOURCE = "/org/mrconf/runner/build.properties";

    /** The build this class was compiled in. */
    public static BuildInfo current() {
        final Properties properties = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                properties.load(in);
            }
        } catch (final IOException e) {
            // an unreadable resource means an unknown build; the run itself is unaffected
        }
        return new BuildInfo(known(properties.getProperty("version")), known(properties.getProperty("commit")));
    }

    private static String known(final String value) {
        return value == null || value.isBlank() || value.startsWith("${") ? "unknown" : value.strip();
    }
}

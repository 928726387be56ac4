package org.mrconf.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;

/** One line naming the machine a real-time benchmark ran on, for its table. */
public final class Machine {
    private Machine() {}

    public static String describe() {
        String cpu = "unknown CPU";
        final Path cpuinfo = Path.of("/proc/cpuinfo");
        if (Files.isReadable(cpuinfo)) {
            try {
                cpu = Files.readAllLines(cpuinfo).stream()
                        .filter(l -> l.startsWith("model name"))
                        .map(l -> l.substring(l.indexOf(':') + 1).strip())
                        .findFirst()
                        .orElse(cpu);
            } catch (final IOException unreadable) {
                // keep "unknown CPU"
            }
        }
        return Runtime.getRuntime().availableProcessors() + " cores (" + cpu + "), " + System.getProperty("os.name")
                + " " + System.getProperty("os.version") + ", Java " + System.getProperty("java.version") + ", "
                + LocalDate.now(ZoneOffset.UTC);
    }
}

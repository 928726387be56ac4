package org.mrconf.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The kernel's UDP counters (Linux {@code /proc/net/snmp}), for telling socket overflow from protocol loss. */
final class KernelUdp {
    private static final Path SNMP = Path.of("/proc/net/snmp");

    private KernelUdp() {}

    /** Datagrams the kernel dropped for a full receive buffer, machine-wide, so far; 0 where unknown. */
    static long receiveBufferErrors() {
        try {
            final List<String> udp = Files.readAllLines(SNMP).stream()
                    .filter(l -> l.startsWith("Udp: "))
                    .toList();
            if (udp.size() < 2) {
                return 0;
            }
            final List<String> names = List.of(udp.get(0).split("\\s+"));
            final String[] values = udp.get(1).split("\\s+");
            final int index = names.indexOf("RcvbufErrors");
            return index < 0 || index >= values.length ? 0 : Long.parseLong(values[index]);
        } catch (final IOException | RuntimeException unknown) {
            return 0;
        }
    }
}

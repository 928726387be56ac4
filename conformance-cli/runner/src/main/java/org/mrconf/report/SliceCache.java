package org.mrconf.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.Map;
import org.mrconf.verdict.CaseResult;

/**
 * Remembers which pcap slices this process wrote, from which case result, and what the file looked like after,
 * so that calling {@link ReportWriters#writeAll} after every case does not rewrite every earlier slice (a libpcap
 * open and close each). A slice is rewritten whenever the case result differs or the file was removed or changed
 * since, so the result is the same as rewriting it every time. Bounded, and safe across threads.
 */
final class SliceCache {
    private static final int MAX_ENTRIES = 4096;

    private record Written(CaseResult result, long size, FileTime modified) {}

    private final Map<Path, Written> written = new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(final Map.Entry<Path, Written> eldest) {
            return size() > MAX_ENTRIES;
        }
    };

    synchronized void writeIfChanged(final Path file, final CaseResult result) throws IOException {
        final Written before = written.get(file);
        if (before != null && before.result().equals(result) && unchanged(file, before)) {
            return;
        }
        written.remove(file);
        PcapSlices.write(file, result);
        final BasicFileAttributes after = Files.readAttributes(file, BasicFileAttributes.class);
        written.put(file, new Written(result, after.size(), after.lastModifiedTime()));
    }

    private static boolean unchanged(final Path file, final Written before) {
        try {
            final BasicFileAttributes now = Files.readAttributes(file, BasicFileAttributes.class);
            return now.size() == before.size() && now.lastModifiedTime().equals(before.modified());
        } catch (IOException e) {
            return false; // gone or unreadable: write it again
        }
    }
}

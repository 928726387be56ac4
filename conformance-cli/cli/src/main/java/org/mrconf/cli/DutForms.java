package org.mrconf.cli;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.mrconf.dut.DeclarationException;
import org.mrconf.dut.DutTarget;

/** The forms {@code --dut} takes, and the one-line error for a target that is none of them. */
final class DutForms {
    /** Every form, one a line, as {@code run --help} and the error list them. */
    static final String FORMS = String.join(
            "\n",
            "  reference                                          the embedded reference, in this process",
            "  reference?defect=NAME[,NAME]                       the embedded reference committing deliberate defects",
            "  reference?config=NAME                              long-haul, ipv6, frames, core, reorder, capped-window",
            "  udp://HOST:PORT[?control=P&token=T]                a soft DUT or NIC agent over UDP",
            "  iface:NAME[?dut=IP&tester=IP&control=P&token=T]    a device on an Ethernet interface, raw frames",
            "  FILE                                               a device declaration (./metaroce declaration new writes one)");

    private DutForms() {}

    /**
     * Refuses, with the forms listed, a {@code --dut} that would be read as a declaration file but names no file: a
     * misspelt path or shortcut is then not reported as a missing file alone.
     */
    static void requireFileOrShortcut(final String target) throws DeclarationException {
        if (target == null || !(DutTarget.parse(target) instanceof DutTarget.ProfileFile)) {
            return;
        }
        final boolean exists;
        try {
            exists = Files.exists(Path.of(target.strip()));
        } catch (final InvalidPathException e) {
            throw notAForm(target);
        }
        if (!exists) {
            throw notAForm(target);
        }
    }

    private static DeclarationException notAForm(final String target) {
        return new DeclarationException(
                "--dut", target, "no such file, and not one of the forms --dut takes:\n" + FORMS);
    }
}

/**
 * Devices the CLI can put under test, opened from a {@code --dut} target: the embedded reference
 * ({@link org.mrconf.embedded}), a UDP shortcut or a profile file.
 */
package org.mrconf.cli.dut;

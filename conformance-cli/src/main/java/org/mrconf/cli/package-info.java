/** The {@code metaroce} command line: one Picocli subcommand per job, exit code 2 for bad input. */
package org.mrconf.cli;

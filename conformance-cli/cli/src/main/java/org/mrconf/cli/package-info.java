/**
 * The {@code metaroce} command line: one Picocli subcommand per job. Each parses its options, calls a library module
 * (the runner, analyze, devices, selftest, vector authoring or a benchmark scenario), prints, and maps the outcome to
 * an exit code (2 for bad input).
 */
package org.mrconf.cli;

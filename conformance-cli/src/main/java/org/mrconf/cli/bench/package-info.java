/** The {@code bench} command: runs the simulator benchmarks and writes their tables (CSV, JSON, Markdown, SVG). */
package org.mrconf.cli.bench;

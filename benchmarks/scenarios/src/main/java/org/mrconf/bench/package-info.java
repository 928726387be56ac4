/**
 * The scenarios behind {@code metaroce bench}: the soak of hostile packets, the reference pair over real UDP, the
 * vector corpus's replay time and the analyser's speed, each measured in one run against its baseline and written as
 * a table under reports/benchmarks/ with the command that made it.
 */
package org.mrconf.bench;

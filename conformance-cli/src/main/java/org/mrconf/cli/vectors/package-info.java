/** The {@code metaroce vectors} commands: scaffold, record, verify and list the test vectors under test-vectors/. */
package org.mrconf.cli.vectors;

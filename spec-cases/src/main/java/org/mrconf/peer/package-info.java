/**
 * The tester peer: a scriptable MetaRoCE endpoint under the test's full control over a {@link org.mrconf.dut.WireLink}
 * that builds any packet (valid or not), sends it with chosen entropy and impairments, records what the DUT sends
 * and matches it against expectations that allow every freedom the spec gives.
 */
package org.mrconf.peer;

/**
 * Deliberate, named non-conformances of the reference (BoringSSL {@code ProtocolBugs} style), off by default, that
 * prove the conformance cases can catch what each clause forbids.
 */
package org.mrconf.defect;

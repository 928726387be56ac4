/**
 * The reference MetaRoCE endpoint: a software NIC implementing the endpoint clauses of the MetaRoCE
 * Open Draft (per-path reliability, placement on arrival, ordered completions, congestion control,
 * protection) over any {@link org.mrconf.net.PacketTransmitter}.
 */
package org.mrconf.transport;

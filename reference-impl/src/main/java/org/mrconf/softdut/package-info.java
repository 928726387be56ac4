/**
 * The reference soft DUT: one reference {@link org.mrconf.transport.Endpoint} driven by an event-loop
 * thread over UDP sockets (or in memory, for the CLI's embedded mode), with the DUT control protocol on TCP
 * ({@link org.mrconf.softdut.SoftDut}).
 */
package org.mrconf.softdut;

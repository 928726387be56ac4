/**
 * UDP sockets that see what {@code java.net} hides: the ECN bits of every received datagram (a native socket through
 * JNA, {@code IP_RECVTOS} read with {@code recvmsg}), for the soft DUT (clause 8.2.5) and the tester's UDP link (clause
 * 4.1.7).
 */
package org.mrconf.pcap.net;

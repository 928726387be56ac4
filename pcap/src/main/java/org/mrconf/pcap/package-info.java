/**
 * Capture I/O for the MetaRoCE conformance suite: Ethernet/IPv4/IPv6/UDP framing with checkable
 * checksums, and pcap/pcapng reading and writing in pure Java ({@link org.mrconf.pcap.PcapReader},
 * {@link org.mrconf.pcap.PcapWriter}), with no native library. Only {@link org.mrconf.pcap.Libpcap}, the check
 * the raw-Ethernet link makes before a live capture, touches Pcap4J and libpcap.
 */
package org.mrconf.pcap;

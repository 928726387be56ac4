/**
 * Capture I/O for the MetaRoCE conformance suite: Ethernet/IPv4/IPv6/UDP framing with checkable
 * checksums, pcap writing and pcap/pcapng reading through Pcap4J and libpcap.
 */
package org.mrconf.pcap;

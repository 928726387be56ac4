/**
 * The DUT control protocol (docs/dut-control-protocol.md) on the device side: a request handler over a
 * reference {@link org.mrconf.transport.Endpoint} ({@link org.mrconf.agent.ControlAgent}: the envelope and
 * dispatch, with one small class per group of operations: {@code Hello}, {@code ConnectionTable},
 * {@code RegionTable}, {@code WorkRequests}, {@code CompletionPoller}, {@code CounterReport}) and an NDJSON TCP
 * server for it ({@link org.mrconf.agent.ControlServer}).
 */
package org.mrconf.agent;

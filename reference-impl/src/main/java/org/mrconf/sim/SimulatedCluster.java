package org.mrconf.sim;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.mrconf.fabric.Fabric;
import org.mrconf.fabric.FabricConfig;
import org.mrconf.fabric.FabricNode;
import org.mrconf.fabric.Simulator;
import org.mrconf.net.PacketTransmitter;
import org.mrconf.transport.ConnectionConfig;
import org.mrconf.transport.Endpoint;
import org.mrconf.transport.EndpointConfig;

/**
 * Reference endpoints on one simulated fabric, in virtual time: node i is the i-th endpoint added.
 * Everything is deterministic for a given fabric seed and endpoint configuration.
 */
public final class SimulatedCluster {
    private final Simulator simulator = new Simulator();
    private final Fabric fabric;
    private final List<Endpoint> endpoints = new ArrayList<>();
    private final List<FabricNode> nodes = new ArrayList<>();

    public SimulatedCluster(final FabricConfig config) {
        this.fabric = new Fabric(simulator, config);
    }

    /** Adds an endpoint on a new node; its node id is the number of endpoints added before it. */
    public Endpoint addEndpoint(final EndpointConfig config) {
        final ForwardingTransmitter transmitter = new ForwardingTransmitter();
        final Endpoint endpoint = new Endpoint(config, transmitter, simulator);
        final FabricNode node = fabric.attach(endpoint);
        transmitter.target = node;
        endpoint.wakeupListener(node::wakeupChanged);
        endpoints.add(endpoint);
        nodes.add(node);
        return endpoint;
    }

    /**
     * Creates a connection between two nodes: connection id {@code idA} at node {@code a} and {@code idB}
     * at node {@code b}, with {@code paths} paths and {@code streams} streams.
     */
    public void connect(final int a, final int idA, final int b, final int idB, final int paths, final int streams) {
        endpoints.get(a).createConnection(ConnectionConfig.of(idA, idB, b, paths, streams));
        endpoints.get(b).createConnection(ConnectionConfig.of(idB, idA, a, paths, streams));
    }

    public Endpoint endpoint(final int node) {
        return endpoints.get(node);
    }

    public FabricNode node(final int node) {
        return nodes.get(node);
    }

    public Fabric fabric() {
        return fabric;
    }

    public Simulator simulator() {
        return simulator;
    }

    public long nowNs() {
        return simulator.nowNs();
    }

    /** Runs until {@code done} holds or virtual time reaches {@code limitNs}; returns whether it holds. */
    public boolean runUntil(final BooleanSupplier done, final long limitNs) {
        if (done.getAsBoolean()) {
            return true;
        }
        simulator.runWhile(() -> !done.getAsBoolean(), limitNs);
        return done.getAsBoolean();
    }

    /** Lets the endpoint be built before its fabric node exists. */
    private static final class ForwardingTransmitter implements PacketTransmitter {
        private PacketTransmitter target;

        @Override
        public void transmit(
                final int dstNode,
                final int srcPort,
                final int ecn,
                final ByteBuffer buffer,
                final int offset,
                final int length) {
            target.transmit(dstNode, srcPort, ecn, buffer, offset, length);
        }
    }
}

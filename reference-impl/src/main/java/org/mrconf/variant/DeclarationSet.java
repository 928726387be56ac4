package org.mrconf.variant;

import java.util.List;
import java.util.Locale;
import org.mrconf.transport.EndpointConfig;

/**
 * One set of declarations a device may make (Table 12-2, freedom F-30: "declare any value the clauses and Table 12-2
 * allow"), for the reference to be built with and to declare in {@code hello}. The self-test samples this space as a
 * property: whatever legal values a device declares, the reference built with them must pass.
 *
 * <p>Values stay inside what the clauses allow and what a test run can afford: path windows 1 to 64 packets (the clause
 * allows 256; larger ones behave as the standard 32), connection windows 1 to 256, ACK coalescing 1 to 64 packets within
 * an ACK delay of at most a quarter of the minimum RTO, a minimum RTO of 1 to 4 times the standard one, decrease
 * factors 0.3 to 0.9 and target utilisations 0.5 to 1.
 *
 * @param pathWindow        first path window, packets (section 10)
 * @param connectionWindow  first connection window, packets (section 10)
 * @param ackCoalescing     ACK coalescing count, packets (clause 8.1.4)
 * @param ackDelayUs        ACK delay, microseconds (clause 8.1.4)
 * @param minRtoScale       the minimum RTO as a multiple of the standard one (clause 6.6.2)
 * @param decreaseFactor    the multiplicative decrease (clause 10.1.1)
 * @param targetUtilization the share of the link rate handed out in rate hints (clause 8.2.4)
 */
public record DeclarationSet(
        int pathWindow,
        int connectionWindow,
        int ackCoalescing,
        int ackDelayUs,
        int minRtoScale,
        double decreaseFactor,
        double targetUtilization)
        implements LegalChoice {
    public DeclarationSet {
        check(pathWindow >= 1 && pathWindow <= 256, "path window 1 to 256 packets");
        check(connectionWindow >= 1, "connection window at least 1 packet");
        check(ackCoalescing >= 1, "ACK coalescing at least 1 packet");
        check(ackDelayUs >= 1, "ACK delay at least 1 microsecond");
        check(minRtoScale >= 1 && minRtoScale <= 16, "minimum RTO scale 1 to 16");
        check(decreaseFactor >= 0.01 && decreaseFactor <= 0.99, "decrease factor 0.01 to 0.99");
        check(targetUtilization > 0 && targetUtilization <= 1, "target utilisation in (0, 1]");
    }

    private static void check(final boolean holds, final String rule) {
        if (!holds) {
            throw new IllegalArgumentException("a declaration out of range: " + rule);
        }
    }

    @Override
    public String label() {
        return String.format(
                Locale.ROOT,
                "declarations(windows %d/%d, ack %d in %d us, min RTO x%d, decrease %.2f, utilisation %.2f)",
                pathWindow,
                connectionWindow,
                ackCoalescing,
                ackDelayUs,
                minRtoScale,
                decreaseFactor,
                targetUtilization);
    }

    @Override
    public EndpointConfig configure(final EndpointConfig standard) {
        final long minRto = minRtoScale * standard.minRtoNs();
        final long ackDelay = Math.min(ackDelayUs * 1_000L, Math.max(1_000L, minRto / 4));
        return standard.toBuilder()
                .windows(pathWindow, connectionWindow, Math.max(connectionWindow, standard.maxConnectionWindow()))
                .ackPolicy(ackDelay, ackCoalescing)
                .timers(minRto, Math.max(minRto, standard.initialRtoNs()), Math.max(minRto, standard.maxRtoNs()))
                .decreaseFactor(decreaseFactor)
                .rateHintUtilization(targetUtilization)
                .build();
    }

    /**
     * The clauses whose cases these values bear on: section 10 and the READ responder for the windows and the factor,
     * the bounded ACK delay for the ACK policy, the retransmission timeout for the RTO, the rate hint for the
     * utilisation.
     */
    @Override
    public List<String> bearsOn() {
        return List.of("10", "7.4.1", "8.1.4", "6.6.2", "8.2.4");
    }
}

package org.mrconf.replay;

import java.util.List;
import java.util.Set;

/**
 * The rules that span several steps of a sidecar ({@link SidecarReader}): names bound before use, and each check
 * placed where what it judges can be seen (ACKs held or released, a silence, a loss, a NACK's wait).
 */
final class StepOrderRules {
    private StepOrderRules() {}

    /**
     * Every region a step names exists, every request placeholder is bound by an await of a READ_REQUEST, and no name
     * is bound twice: a typo must be an error, not a placeholder that is never rewritten.
     */
    static void checkNames(
            final SidecarFields f,
            final Sidecar.Setup setup,
            final Sidecar.Placeholders placeholders,
            final List<Sidecar.Step> steps)
            throws VectorException {
        final Set<String> regions = new java.util.HashSet<>();
        setup.regions().forEach(r -> regions.add(r.name()));
        final Set<String> bound = new java.util.HashSet<>();
        final Set<String> requests = new java.util.HashSet<>();
        for (int i = 0; i < steps.size(); i++) {
            final Sidecar.Step step = steps.get(i);
            if (step instanceof Sidecar.Post post && !regions.contains(post.region())) {
                throw new VectorException(
                        f.file, "$.steps[" + i + "].post.region", "names no region of $.setup.regions");
            }
            if (step instanceof Sidecar.Control control
                    && control.region().isPresent()
                    && !regions.contains(control.region().get())) {
                throw new VectorException(
                        f.file, "$.steps[" + i + "].control.region", "names no region of $.setup.regions");
            }
            if (step instanceof Sidecar.Check check) {
                for (final Sidecar.RegionContent content : check.regions()) {
                    if (!regions.contains(content.region())) {
                        throw new VectorException(
                                f.file, "$.steps[" + i + "].check.regions", "names no region: " + content.region());
                    }
                }
            }
            if (step instanceof Sidecar.Await await && await.as().isPresent()) {
                if (bound.contains(await.as().get())) {
                    throw new VectorException(f.file, "$.steps[" + i + "].await.as", "is bound twice");
                }
                bound.add(await.as().get());
                if ("READ_REQUEST".equals(await.opcode())) {
                    requests.add(await.as().get());
                }
            }
            if (step instanceof Sidecar.Nack nack && !bound.contains(nack.of())) {
                throw new VectorException(
                        f.file, "$.steps[" + i + "].nack.of", "names no message an earlier await bound (\"as\")");
            }
        }
        for (final String name : placeholders.requests().keySet()) {
            if (!requests.contains(name)) {
                throw new VectorException(
                        f.file,
                        "$.placeholders.requests." + name,
                        "is an unknown placeholder: no await step of a READ_REQUEST binds it (\"as\": \"" + name
                                + "\")");
            }
        }
        checkNothingAcknowledged(f, steps);
        checkLossAndNackWaits(f, steps);
        checkWindowsWhileHeld(f, steps);
        checkReleasedAfterHold(f, steps);
        checkPathHealthOrder(f, steps);
        if (setup.initialSendPsn() != 0 && steps.isEmpty()) {
            throw new VectorException(
                    f.file, "$.setup.initialSendPsn", "only matters when the DUT sends: give steps that post work");
        }
    }

    /**
     * The checks that judge the DUT's timers and spraying ({@link Sidecar.Check#needsNothingAcknowledged()}) come
     * while the tester has acknowledged nothing of the DUT's: its ACKs held back before the first post and neither
     * released nor replaced by a NACK since; after a {@code failed} check the connection is gone, and only send
     * and check steps may follow (what the DUT does with packets for a failed connection, clause 6.7.4).
     */
    private static void checkNothingAcknowledged(final SidecarFields f, final List<Sidecar.Step> steps)
            throws VectorException {
        boolean posted = false;
        boolean silent = false;
        for (int i = 0; i < steps.size(); i++) {
            final Sidecar.Step step = steps.get(i);
            if (step instanceof Sidecar.Acks acks) {
                silent = acks.hold() && (silent || !posted);
            } else if (step instanceof Sidecar.Nack) {
                silent = false;
            } else if (step instanceof Sidecar.Post) {
                posted = true;
            } else if (step instanceof Sidecar.Check check && check.needsNothingAcknowledged()) {
                if (!silent) {
                    throw new VectorException(
                            f.file,
                            "$.steps[" + i + "].check",
                            "judges the DUT's timers or spraying, which needs a tester that has acknowledged nothing:"
                                    + " an acks step with hold true before the first post, and no acks or nack step"
                                    + " since");
                }
                if (!check.failed().isEmpty()) {
                    for (int j = i + 1; j < steps.size(); j++) {
                        if (!(steps.get(j) instanceof Sidecar.Send)
                                && !(steps.get(j) instanceof Sidecar.Check later
                                        && !later.needsNothingAcknowledged())) {
                            throw new VectorException(
                                    f.file,
                                    "$.steps[" + j + "]",
                                    "comes after the connection failed ($.steps[" + i + "].check.failed): only send"
                                            + " and check steps may follow");
                        }
                    }
                }
            }
        }
    }

    /**
     * A {@code pathWindow} or {@code connectionWindow} check counts packets in flight, which only a tester that holds
     * its ACKs back sees: the latest acks step before it holds, and a post comes between the hold and the check, so
     * that there is something to send. A {@code rtoFollowsEcho} check needs the same, after an acks step that gave an
     * {@code echoAge}.
     */
    private static void checkWindowsWhileHeld(final SidecarFields f, final List<Sidecar.Step> steps)
            throws VectorException {
        boolean held = false;
        boolean posted = false;
        boolean echoing = false;
        for (int i = 0; i < steps.size(); i++) {
            final Sidecar.Step step = steps.get(i);
            if (step instanceof Sidecar.Check check && check.rtoFollowsEcho() && !(held && posted && echoing)) {
                throw new VectorException(
                        f.file,
                        "$.steps[" + i + "].check.rtoFollowsEcho",
                        "judges the RTO of a packet sent while the tester holds its ACKs back after old echoes,"
                                + " which needs an earlier acks step with an echoAge, then one that holds, and a post"
                                + " since");
            }
            if (step instanceof Sidecar.Acks acks) {
                echoing |= acks.echoAgeMs().orElse(0) > 0;
                held = acks.hold();
                posted &= held; // what was posted before the ACKs flowed again is acknowledged
            } else if (step instanceof Sidecar.Post) {
                posted |= held;
            } else if (step instanceof Sidecar.Check check
                    && (check.pathWindow() || check.connectionWindow())
                    && !(held && posted)) {
                throw new VectorException(
                        f.file,
                        "$.steps[" + i + "].check." + (check.pathWindow() ? "pathWindow" : "connectionWindow"),
                        "counts the packets the DUT has in flight, which needs an earlier post while the tester"
                                + " holds its ACKs back (the latest acks step has hold true)");
            }
        }
    }

    /**
     * A {@code noSpuriousResend} check judges the packets sent during a hold whose ACKs the latest acks step released,
     * against the initial RTO: an acks step holds before the first post (no RTT sample yet), a post follows, and the
     * latest acks step before the check releases (hold false).
     */
    private static void checkReleasedAfterHold(final SidecarFields f, final List<Sidecar.Step> steps)
            throws VectorException {
        boolean posted = false;
        boolean held = false;
        boolean heldFromTheStart = false;
        boolean postedWhileHeld = false;
        boolean released = false;
        for (int i = 0; i < steps.size(); i++) {
            final Sidecar.Step step = steps.get(i);
            if (step instanceof Sidecar.Acks acks) {
                released = heldFromTheStart && postedWhileHeld && !acks.hold();
                heldFromTheStart = acks.hold() && (heldFromTheStart || !posted);
                postedWhileHeld &= acks.hold();
                held = acks.hold();
            } else if (step instanceof Sidecar.Post) {
                posted = true;
                postedWhileHeld |= held;
            } else if (step instanceof Sidecar.Check check && check.noSpuriousResend() && !released) {
                throw new VectorException(
                        f.file,
                        "$.steps[" + i + "].check.noSpuriousResend",
                        "judges the packets sent while the tester held its ACKs back against the initial RTO, which"
                                + " needs an acks step with hold true before the first post, a post, then an acks step"
                                + " with hold false as the latest before it");
            }
        }
    }

    /**
     * The path-health checks need their silence: {@code unhealthy} comes while the latest acks step keeps paths silent,
     * after a post in that silence; {@code avoided} later in the same silence, after an {@code unhealthy} check and a
     * post since; {@code healed} after the acks step that ended a silence in which a path was shown unhealthy, that
     * step holding ACKs back, with a post since. A silence ends only at an acks step, so one must follow it.
     */
    private static void checkPathHealthOrder(final SidecarFields f, final List<Sidecar.Step> steps)
            throws VectorException {
        int silence = -1;
        boolean posted = false;
        boolean unhealthy = false;
        boolean postedSinceUnhealthy = false;
        boolean healing = false;
        for (int i = 0; i < steps.size(); i++) {
            final Sidecar.Step step = steps.get(i);
            final String at = "$.steps[" + i + "].check.";
            if (step instanceof Sidecar.Acks acks) {
                healing = silence >= 0 && unhealthy && acks.hold();
                silence = acks.silentPaths().isEmpty() ? -1 : i;
                posted = false;
                unhealthy = false;
            } else if (step instanceof Sidecar.Post) {
                posted = true;
                postedSinceUnhealthy |= unhealthy;
            } else if (step instanceof Sidecar.Check check) {
                if (check.unhealthy() && (silence < 0 || !posted)) {
                    throw new VectorException(
                            f.file,
                            at + "unhealthy",
                            "waits for silent paths to turn unhealthy,"
                                    + " which needs a post while the latest acks step keeps paths silent (silentPaths)");
                }
                if (check.avoided() && (silence < 0 || !unhealthy || !postedSinceUnhealthy)) {
                    throw new VectorException(
                            f.file,
                            at + "avoided",
                            "judges the new PSNs after an unhealthy check"
                                    + " of the same silence, which needs that check and a post after it");
                }
                if (check.healed() && !(healing && posted)) {
                    throw new VectorException(
                            f.file,
                            at + "healed",
                            "judges the paths the latest acks step"
                                    + " acknowledged after a silence with an unhealthy check, which needs that step to hold"
                                    + " ACKs back and a post after it");
                }
                if (check.unhealthy()) {
                    unhealthy = true;
                    postedSinceUnhealthy = false;
                }
            }
        }
        if (silence >= 0) {
            throw new VectorException(
                    f.file,
                    "$.steps[" + silence + "].acks.silentPaths",
                    "keeps those paths silent until the next" + " acks step, and none follows");
        }
    }

    /**
     * The checks that judge what follows an earlier step come after it. A {@code resentOnlyLost} check judges what the
     * DUT resends after the describing ACKs of the latest acks step, so that step must describe (and hold), and no nack
     * step may come between: a NACK would tell the DUT more. A {@code resentAfterRetry} check needs the latest nack
     * step to give a retry-after, and a {@code notResentFor} check a latest nack step of PSN_OUT_OF_WINDOW with no acks
     * or post step since. The losses of a {@code lose} end only at the next acks step, so one must follow it.
     */
    private static void checkLossAndNackWaits(final SidecarFields f, final List<Sidecar.Step> steps)
            throws VectorException {
        boolean described = false;
        boolean retrying = false;
        boolean outOfWindow = false;
        int losing = -1;
        for (int i = 0; i < steps.size(); i++) {
            final Sidecar.Step step = steps.get(i);
            if (step instanceof Sidecar.Nack nack) {
                retrying = nack.retryAfterUs().isPresent();
                outOfWindow = nack.code().equals("PSN_OUT_OF_WINDOW");
            }
            if (step instanceof Sidecar.Acks || step instanceof Sidecar.Post) {
                outOfWindow = false; // an ACK may move the window; a new post may fill it
            }
            if (step instanceof Sidecar.Check check && check.notResentForMs().isPresent() && !outOfWindow) {
                throw new VectorException(
                        f.file,
                        "$.steps[" + i + "].check.notResentFor",
                        "watches the PSN the latest nack step NACKed PSN_OUT_OF_WINDOW, with no acks or post step"
                                + " since, and there is none");
            }
            if (step instanceof Sidecar.Check check && check.resentAfterRetry() && !retrying) {
                throw new VectorException(
                        f.file,
                        "$.steps[" + i + "].check.resentAfterRetry",
                        "judges the retry of the PSN the latest nack step NACKed RECEIVER_NOT_READY with a"
                                + " retryAfter, and that nack step gives none");
            }
            if (step instanceof Sidecar.Acks acks) {
                described = acks.describe();
                losing = acks.lose().isEmpty() ? -1 : i;
            } else if (step instanceof Sidecar.Nack) {
                described = false;
            } else if (step instanceof Sidecar.Check check && check.resentOnlyLost() && !described) {
                throw new VectorException(
                        f.file,
                        "$.steps[" + i + "].check.resentOnlyLost",
                        "judges the resends after the ACKs of an acks step with describe true (and hold true), the"
                                + " latest acks step before it, with no nack step since");
            }
        }
        if (losing >= 0) {
            throw new VectorException(
                    f.file,
                    "$.steps[" + losing + "].acks.lose",
                    "loses those PSNs until the next acks step, and none follows");
        }
    }
}

/**
 * Submission bundles for review: a run folder with the product's identity, the environment, a SHA-256 manifest of
 * every file and an Ed25519 signature over it, packed deterministically, and the offline checks a reviewer runs on
 * one.
 */
package org.mrconf.bundle;

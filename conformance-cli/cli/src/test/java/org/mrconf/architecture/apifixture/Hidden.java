package org.mrconf.architecture.apifixture;

/** For {@code ApiMarksTest}: a package-private type, which needs no mark. */
final class Hidden {}

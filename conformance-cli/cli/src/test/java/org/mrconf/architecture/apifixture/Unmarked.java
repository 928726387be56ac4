package org.mrconf.architecture.apifixture;

/** A deliberate violation for {@code ApiMarksTest}: a public type without an {@code @API} mark. */
public class Unmarked {}

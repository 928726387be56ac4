/** Types that {@code ApiMarksTest} checks its rule against: one violation, two types the rule accepts. */
package org.mrconf.architecture.apifixture;

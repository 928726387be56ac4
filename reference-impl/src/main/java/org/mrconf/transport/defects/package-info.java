/**
 * The reference transport's deliberate defects ({@link org.mrconf.defect.Defect}) as code: one small class per defect,
 * named for it, that wraps one seam of {@code org.mrconf.transport} and answers wrongly the decisions the defect gets
 * wrong, forwarding every other. {@link org.mrconf.transport.defects.DefectSeams} builds the seams for the active set.
 * Kept out of {@code org.mrconf.transport} so that the transport reads as the spec says; a subpackage of it (not of
 * {@code org.mrconf.defect}) so that the defect catalogue, which the transport's configuration carries, depends on
 * nothing and the packages stay free of cycles.
 */
package org.mrconf.transport.defects;

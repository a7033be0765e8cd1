/**
 * The artifact file: the format ({@link dev.domino.runtime.internal.format.ArtifactFormat}: header, sections, Kryo
 * with registration and bounded lengths), the vocabulary section, safe reading of untrusted files and atomic
 * writing. Data flows parts → bytes when the compiler saves, and bytes → parts (all checked) when the runtime
 * loads.
 */
package dev.domino.runtime.internal.format;

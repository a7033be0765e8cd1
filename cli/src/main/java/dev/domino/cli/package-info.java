/**
 * The user commands of {@code domino} ({@code compile}, {@code mask}, {@code inspect}, {@code sample},
 * {@code train}) and the helpers the bench tooling shares with them (the {@link dev.domino.cli.CompilerOptions}
 * mixin, JSON output, errors, progress). Data flows from command-line options through the compiler's front door
 * to artifact files, and from artifact files through the runtime to masks and reports. The inspect commands
 * read runtime internals through {@code RuntimeAccess}: diagnostics only.
 */
package dev.domino.cli;

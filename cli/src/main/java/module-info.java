/**
 * The {@code domino} command line: user commands in {@code dev.domino.cli}, benchmark and fuzz
 * tooling in {@code dev.domino.cli.bench}. Exports nothing (an application). Picocli reads the
 * commands' annotated fields by reflection, hence the opens. The inspect commands and
 * {@code bench maskbench} read runtime internals ({@code dev.domino.runtime.internal}, exported to
 * this module): diagnostics only, never needed to compile or save.
 */
module dev.domino.cli {
    requires dev.domino.compiler;
    requires dev.domino.runtime;
    requires info.picocli;
    requires com.fasterxml.jackson.databind;
    requires java.management;

    opens dev.domino.cli to info.picocli;
    opens dev.domino.cli.bench to info.picocli;
}

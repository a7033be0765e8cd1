/**
 * The Domino compiler: grammar sources (GBNF, Lark, regex, JSON Schema, OpenAI-style requests) to
 * artifacts, through IR, byte automata and subterminal trees ({@code DominoCompiler} is the front door).
 *
 * <p>Exported: the packages the CLI, bench and the integrations use. {@code automata}, {@code lexer}
 * and {@code structural} are internal stages, and so are the {@code jsonschema} sub-packages ({@code strings},
 * {@code numbers}, {@code objects}, {@code arrays}, {@code algebra}, {@code refs}): other modules use only
 * {@code JsonSchemaGrammar}, {@code JsonSchemaOptions} and {@code SchemaRegistry}. The compiler builds artifacts
 * from the runtime's internal parts ({@code dev.domino.runtime.internal}, exported to this module only with
 * the CLI).
 */
module dev.domino.compiler {
    requires transitive dev.domino.runtime;
    requires transitive com.fasterxml.jackson.databind;
    // no module name in its manifest: the file-name-derived automatic module
    requires jtokkit;
    requires ai.djl.tokenizers;
    requires java.management; // DeepStack: the compile thread's CPU time, for the bench

    exports dev.domino.compiler;
    exports dev.domino.compiler.frontend;
    exports dev.domino.compiler.ir;
    exports dev.domino.compiler.jsonschema;
    exports dev.domino.compiler.request;
    exports dev.domino.compiler.testing;
    exports dev.domino.compiler.vocab;
    exports dev.domino.constraints;
}

package dev.domino.compiler;

import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.RuntimeLimits;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Limits are values passed to one compile or one artifact, not JVM-global settings: two compiles
 * (two artifacts) of one process may have different limits, and neither changes the other.
 */
class LimitsAsValuesTest {
    static final String DEEP = "root ::= " + "(".repeat(50) + "\"a\"" + ")".repeat(50) + "\n";

    @Test void compileLimitsHoldForOneCompileOnly() {
        Tokenizer tok = VocabularyLoader.load("o200k_base", null);
        DominoCompiler compiler = DominoCompiler.forVocabulary(tok.vocabulary());
        CompileOptions tight = CompileOptions.builder().threads(1)
                .limits(CompileLimits.Values.DEFAULTS.with("nesting-depth=10")).build();
        assertThatThrownBy(() -> compiler.compile(DEEP, SourceFormat.GBNF, tight))
                .isInstanceOf(CompileLimits.LimitExceededException.class).hasMessageContaining("nesting-depth=10");
        // the same grammar, another compile of the same process with the defaults
        assertThat(compiler.compile(DEEP, SourceFormat.GBNF, CompileOptions.builder().threads(1).build())).isNotNull();
        assertThat(CompileLimits.NESTING_DEPTH.value()).isEqualTo(CompileLimits.NESTING_DEPTH.defaultValue());
    }

    @Test void parserLimitsPerArtifact() throws Exception {
        Tokenizer tok = VocabularyLoader.load("o200k_base", null);
        Artifact compiled = DominoCompiler.forVocabulary(tok.vocabulary())
                .compile("root ::= root root | \"a\"\n", SourceFormat.GBNF, CompileOptions.builder().threads(1).build());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        compiled.write(bytes);
        RuntimeLimits tight = new RuntimeLimits(2_000, 4L << 20, 512L << 20, 256L << 20, 64L << 20, 16L << 20,
                16L << 20, 64L << 20, 256, 200);
        Matcher limited = Artifact.load(new ByteArrayInputStream(bytes.toByteArray()), tight).newMatcher();
        Matcher free = Artifact.load(new ByteArrayInputStream(bytes.toByteArray())).newMatcher();
        String text = "a".repeat(200);
        assertThat(limited.acceptString(text)).isFalse();
        assertThat(limited.errorReason()).contains("RuntimeLimits.parserMaxStepWork");
        assertThat(free.acceptString(text)).isTrue();
    }
}

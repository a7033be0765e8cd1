package dev.domino.compiler.vocab;

import static dev.domino.compiler.vocab.VocabTestSupport.concat;
import static dev.domino.compiler.vocab.VocabTestSupport.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.domino.runtime.Vocabulary;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VocabTiktokenFileTest {
    @Test
    void tinyFile() {
        Tokenizer t = VocabularyLoader.load(resource("tiny.tiktoken").toString(), null);
        Vocabulary v = t.vocabulary();
        assertThat(v.name()).isEqualTo("tiny.tiktoken");
        assertThat(v.size()).isEqualTo(6);
        assertThat(v.bytes(4)).isEqualTo(" ab".getBytes(StandardCharsets.UTF_8));
        assertThat(v.bytes(5)).containsExactly((byte) 0xE2, (byte) 0x82);
        assertThat(v.eosIds()).isEmpty();
        assertThat(v.specialIds().isEmpty()).isTrue();
        assertThat(t.encode("ab ab")).containsExactly(3, 4);
    }

    @Test
    void eosMustBeInside() {
        String path = resource("tiny.tiktoken").toString();
        assertThat(VocabularyLoader.load(path, new int[] {5}).vocabulary().eosIds()).containsExactly(5);
        assertThatThrownBy(() -> VocabularyLoader.load(path, new int[] {6}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("EOS id 6");
    }

    /** jtokkit's own cl100k ranks, loaded as a file, give the same bytes and encoding as the built-in. */
    @Test
    void matchesBuiltinCl100k(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("cl100k_base.tiktoken");
        try (InputStream in = com.knuddels.jtokkit.Encodings.class.getResourceAsStream("/com/knuddels/jtokkit/cl100k_base.tiktoken")) {
            Files.copy(in, file);
        }
        Tokenizer fromFile = VocabularyLoader.load(file.toString(), null);
        Tokenizer builtin = VocabularyLoader.load("cl100k_base", null);
        for (int id = 0; id < 100256; id++) {
            assertThat(fromFile.vocabulary().bytes(id)).isEqualTo(builtin.vocabulary().bytes(id));
        }
        for (String s : VocabularyLoaderTest.TEXTS) {
            int[] ids = fromFile.encode(s);
            assertThat(ids).as(s).isEqualTo(builtin.encode(s));
            assertThat(concat(fromFile.vocabulary(), ids)).isEqualTo(s.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void badLine(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("bad.tiktoken"), "YQ== 0\nYg== x\n");
        assertThatThrownBy(() -> VocabularyLoader.load(file.toString(), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(":2:");
    }
}

package dev.domino.compiler.vocab;

import static dev.domino.compiler.vocab.VocabTestSupport.concat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.domino.runtime.Vocabulary;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class VocabularyLoaderTest {
    static final String[] TEXTS = {
        "", "hello world", "{\"question\":\"THE ULTIMATE\",\"answer\":42}", "  leading and trailing  \n\n\t",
        "emoji 🎉👍🏽 and 👨‍👩‍👧", "中文分词测试，日本語のテキスト、한국어", "mixed: naïve café — ½ € \u0000 end",
        "<|endoftext|> is ordinary text here", "code: for (int i = 0; i < n; i++) { x += a[i]; }",
    };

    @Test
    void o200k() {
        Vocabulary v = VocabularyLoader.load("o200k_base", null).vocabulary();
        assertThat(v.name()).isEqualTo("o200k_base");
        assertThat(v.size()).isEqualTo(200019);
        assertThat(v.eosIds()).containsExactly(199999);
        assertThat(v.isSpecial(199999)).isTrue();
        assertThat(v.isSpecial(200018)).isTrue();
        assertThat(new String(v.bytes(199999), StandardCharsets.UTF_8)).isEqualTo("<|endoftext|>");
        assertThat(new String(v.bytes(200018), StandardCharsets.UTF_8)).isEqualTo("<|endofprompt|>");
        assertThat(v.isGrammarToken(199999)).isFalse();
        // 199998 and 200000..200017 are holes in o200k's id space
        assertThat(v.bytes(199998)).isEmpty();
        assertThat(v.bytes(200005)).isEmpty();
        assertThat(v.specialIds().cardinality()).isEqualTo(2);
        assertThat(v.bytes(0)).containsExactly('!');
    }

    @Test
    void cl100k() {
        Vocabulary v = VocabularyLoader.load("cl100k_base", null).vocabulary();
        assertThat(v.size()).isEqualTo(100277);
        assertThat(v.eosIds()).containsExactly(100257);
        for (int id : new int[] {100257, 100258, 100259, 100260, 100276}) assertThat(v.isSpecial(id)).isTrue();
        assertThat(v.specialIds().cardinality()).isEqualTo(5);
        assertThat(new String(v.bytes(100258), StandardCharsets.UTF_8)).isEqualTo("<|fim_prefix|>");
        assertThat(v.bytes(100261)).isEmpty(); // hole
        assertThat(v.isGrammarToken(100261)).isFalse();
    }

    @Test
    void p50kAndR50k() {
        Vocabulary p = VocabularyLoader.load("p50k_base", null).vocabulary();
        assertThat(p.size()).isEqualTo(50281);
        assertThat(p.eosIds()).containsExactly(50256);
        Vocabulary r = VocabularyLoader.load("r50k_base", null).vocabulary();
        assertThat(r.size()).isEqualTo(50257);
        assertThat(r.eosIds()).containsExactly(50256);
    }

    @ParameterizedTest
    @ValueSource(strings = {"o200k_base", "cl100k_base"})
    void roundTrip(String name) {
        Tokenizer t = VocabularyLoader.load(name, null);
        for (String s : TEXTS) {
            int[] ids = t.encode(s);
            assertThat(concat(t.vocabulary(), ids)).as(s).isEqualTo(s.getBytes(StandardCharsets.UTF_8));
            for (int id : ids) assertThat(t.vocabulary().isSpecial(id)).as("special id in encoding of " + s).isFalse();
        }
    }

    @Test
    void fingerprints() {
        String a = VocabularyLoader.load("o200k_base", null).vocabulary().fingerprint();
        String b = VocabularyLoader.load("o200k_base", null).vocabulary().fingerprint();
        String c = VocabularyLoader.load("cl100k_base", null).vocabulary().fingerprint();
        assertThat(a).isEqualTo(b).isNotEqualTo(c);
    }

    @Test
    void eosOverride() {
        Vocabulary v = VocabularyLoader.load("cl100k_base", new int[] {100276}).vocabulary();
        assertThat(v.eosIds()).containsExactly(100276);
        assertThat(v.fingerprint()).isNotEqualTo(VocabularyLoader.load("cl100k_base", null).vocabulary().fingerprint());
    }

    @Test
    void unknownSpec(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> VocabularyLoader.load("gpt5_base", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown vocabulary 'gpt5_base': expected o200k_base, cl100k_base, a tokenizer.json or a .tiktoken file");
        assertThatThrownBy(() -> VocabularyLoader.load(dir.resolve("missing.json").toString(), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not found");
        Path text = Files.writeString(dir.resolve("notes.txt"), "just some notes\n");
        assertThatThrownBy(() -> VocabularyLoader.load(text.toString(), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("unknown vocabulary");
        Path json = Files.writeString(dir.resolve("x.json"), "{\"a\": 1}");
        assertThatThrownBy(() -> VocabularyLoader.load(json.toString(), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a HuggingFace tokenizer.json");
    }
}

package dev.domino.compiler.vocab;

import static dev.domino.compiler.vocab.VocabTestSupport.concat;
import static dev.domino.compiler.vocab.VocabTestSupport.resource;
import static dev.domino.compiler.vocab.VocabTestSupport.sharedVocab;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.domino.runtime.Vocabulary;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VocabHfTokenizerJsonTest {
    private static byte[] utf8(String s) { return s.getBytes(StandardCharsets.UTF_8); }

    private static int idOf(Vocabulary v, String text) {
        for (int id = 0; id < v.size(); id++) if (new String(v.bytes(id), StandardCharsets.UTF_8).equals(text)) return id;
        throw new AssertionError("no token " + text);
    }

    @Test
    void tinyByteLevel() {
        Tokenizer t = VocabularyLoader.load(resource("tiny-bytelevel-tokenizer.json").toString(), null);
        Vocabulary v = t.vocabulary();
        assertThat(v.name()).isEqualTo("tiny-bytelevel-tokenizer.json");
        assertThat(v.size()).isEqualTo(304);
        for (int b = 0; b < 256; b++) assertThat(v.bytes(b)).containsExactly((byte) b);
        assertThat(v.bytes(258)).isEqualTo(utf8(" the"));      // "Ġthe"
        assertThat(v.bytes(261)).isEqualTo(utf8("é"));         // "Ã©"
        assertThat(v.bytes(301)).isEmpty();                    // hole
        assertThat(v.bytes(300)).isEqualTo(utf8("<|endoftext|>"));
        assertThat(v.isSpecial(300)).isTrue();
        assertThat(v.isSpecial(302)).isTrue();
        assertThat(v.isSpecial(303)).isFalse();                // non-special added token is ordinary text
        assertThat(v.bytes(303)).isEqualTo(utf8("<tool>"));
        assertThat(v.eosIds()).containsExactlyInAnyOrder(300, 302);
        assertThat(v.specialIds().cardinality()).isEqualTo(2);
    }

    @Test
    void tinyByteLevelEncodes() {
        Tokenizer t = VocabularyLoader.load(resource("tiny-bytelevel-tokenizer.json").toString(), null);
        String s = "the the café 🎉";
        int[] ids = t.encode(s);
        assertThat(concat(t.vocabulary(), ids)).isEqualTo(utf8(s));
        assertThat(ids).contains(258);
    }

    @Test
    void tinySentencePiece() {
        Tokenizer t = VocabularyLoader.load(resource("tiny-sentencepiece-tokenizer.json").toString(), null);
        Vocabulary v = t.vocabulary();
        assertThat(v.size()).isEqualTo(275);
        assertThat(v.eosIds()).containsExactly(2);
        assertThat(v.isSpecial(0)).isTrue();   // <unk>
        assertThat(v.isSpecial(1)).isTrue();   // <s>
        assertThat(v.isSpecial(2)).isTrue();   // </s>
        assertThat(v.bytes(2)).isEqualTo(utf8("</s>"));
        for (int b = 0; b < 256; b++) assertThat(v.bytes(3 + b)).containsExactly((byte) b); // <0xNN>
        assertThat(v.bytes(259)).isEqualTo(utf8(" "));         // "▁"
        assertThat(v.bytes(idOf(v, " the"))).isEqualTo(utf8(" the"));
        assertThat(v.bytes(idOf(v, "é"))).isEqualTo(utf8("é"));
    }

    @Test
    void tinySentencePieceEncodesWithLeadingSpace() {
        Tokenizer t = VocabularyLoader.load(resource("tiny-sentencepiece-tokenizer.json").toString(), null);
        int[] ids = t.encode("the cat€");
        // SentencePiece prepends ▁; € is not in the vocabulary and falls back to its three bytes.
        assertThat(concat(t.vocabulary(), ids)).isEqualTo(utf8(" the cat€"));
        assertThat(ids[0]).isEqualTo(idOf(t.vocabulary(), " the"));
        assertThat(ids).endsWith(3 + 0xE2, 3 + 0x82, 3 + 0xAC);
    }

    @Test
    void eosOverrideAndFingerprint() {
        String path = resource("tiny-sentencepiece-tokenizer.json").toString();
        Vocabulary a = VocabularyLoader.load(path, null).vocabulary();
        Vocabulary b = VocabularyLoader.load(path, null).vocabulary();
        Vocabulary c = VocabularyLoader.load(path, new int[] {259}).vocabulary();
        assertThat(a.fingerprint()).isEqualTo(b.fingerprint()).isNotEqualTo(c.fingerprint());
        assertThat(c.eosIds()).containsExactly(259);
        assertThat(c.isSpecial(259)).isTrue();
        assertThatThrownBy(() -> VocabularyLoader.load(path, new int[] {9999}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("9999");
    }

    @Test
    void loadingBytesDoesNotBuildTheEncoder(@TempDir Path dir) throws Exception {
        // A tokenizer.json the native tokenizer would reject (merges reference unknown pieces) still
        // yields its vocabulary: the encoder is only built on first encode().
        String json = Files.readString(resource("tiny-sentencepiece-tokenizer.json"))
                .replace("\"merges\": [", "\"merges\": [\n  \"zz qq\",");
        Path broken = Files.writeString(dir.resolve("tokenizer.json"), json);
        Tokenizer t = VocabularyLoader.load(broken.toString(), null);
        assertThat(t.vocabulary().size()).isEqualTo(275);
        assertThat(t.vocabulary().name()).isEqualTo(dir.getFileName() + "/tokenizer.json");
        assertThatThrownBy(() -> t.encode("the")).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("tokenizer.json");
    }

    @Test
    void unsupportedSchemeIsRejected(@TempDir Path dir) throws Exception {
        Path wordPiece = Files.writeString(dir.resolve("bert.json"),
                "{\"model\":{\"type\":\"WordPiece\",\"vocab\":{\"a\":0}},\"added_tokens\":[]}");
        assertThatThrownBy(() -> VocabularyLoader.load(wordPiece.toString(), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("WordPiece");
        Path plain = Files.writeString(dir.resolve("plain.json"),
                "{\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0},\"merges\":[]},\"added_tokens\":[]}");
        assertThatThrownBy(() -> VocabularyLoader.load(plain.toString(), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot tell");
    }

    @Test
    void llama3() {
        Tokenizer t = VocabularyLoader.load(sharedVocab("llama3-tokenizer.json").toString(), null);
        Vocabulary v = t.vocabulary();
        assertThat(v.size()).isEqualTo(128256);
        assertThat(v.eosIds()).contains(128001, 128009);
        assertThat(v.isSpecial(128000)).isTrue();
        assertThat(v.specialIds().cardinality()).isEqualTo(256);
        assertThat(v.bytes(idOf(v, " the"))).isEqualTo(utf8(" the"));
        String s = "{\"question\":\"THE ULTIMATE\",\"answer\":42}";
        int[] ids = t.encode(s);
        assertThat(ids).hasSize(12);
        assertThat(concat(v, ids)).isEqualTo(utf8(s));
        for (String text : VocabularyLoaderTest.TEXTS) {
            if (text.contains("<|")) continue; // HF matches added tokens written in the text
            assertThat(concat(v, t.encode(text))).as(text).isEqualTo(utf8(text));
        }
    }

    @Test
    void mistral() {
        Tokenizer t = VocabularyLoader.load(sharedVocab("mistral-tokenizer.json").toString(), null);
        Vocabulary v = t.vocabulary();
        assertThat(v.size()).isEqualTo(32000);
        assertThat(v.eosIds()).containsExactly(2);
        assertThat(v.isSpecial(0)).isTrue();
        assertThat(v.isSpecial(1)).isTrue();
        assertThat(v.specialIds().cardinality()).isEqualTo(3);
        assertThat(v.bytes(3 + 0xE2)).containsExactly((byte) 0xE2); // <0xE2>
        assertThat(v.bytes(idOf(v, " the"))).isEqualTo(utf8(" the"));
        String s = "{\"question\":\"THE ULTIMATE\",\"answer\":42} 🎉";
        assertThat(concat(v, t.encode(s))).isEqualTo(utf8(" " + s)); // SentencePiece prepends ▁
    }
}

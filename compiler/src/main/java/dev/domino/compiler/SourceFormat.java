package dev.domino.compiler;

import java.util.Locale;

/** The grammar languages the compiler reads. */
public enum SourceFormat {
    GBNF("gbnf"), LARK("lark"), REGEX("regex"), JSON_SCHEMA("json-schema");

    private final String id;

    SourceFormat(String id) { this.id = id; }

    public String id() { return id; }

    public static SourceFormat parse(String s) {
        for (SourceFormat f : values()) if (f.id.equalsIgnoreCase(s) || f.name().equalsIgnoreCase(s)) return f;
        throw new IllegalArgumentException("unknown grammar format '" + s + "': expected gbnf, lark, regex or json-schema");
    }

    /** Guess from a file name: .gbnf, .lark, .regex/.re, .json/.schema.json. */
    public static SourceFormat fromFileName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.endsWith(".gbnf") || n.endsWith(".bnf") || n.endsWith(".ebnf")) return GBNF;
        if (n.endsWith(".lark")) return LARK;
        if (n.endsWith(".regex") || n.endsWith(".re")) return REGEX;
        if (n.endsWith(".json")) return JSON_SCHEMA;
        throw new IllegalArgumentException("cannot tell the grammar format of '" + name
                + "' from its extension: pass --format gbnf|lark|regex|json-schema");
    }
}
